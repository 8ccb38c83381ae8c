-- A refusal raised in SQL: the message is an error code of src/errors.ts, the detail a field path,
-- the hint the field's sentence. Decoded by appErrorFromDatabase (app-errors.ts).
CREATE OR REPLACE FUNCTION raise_app(p_code text, p_field text DEFAULT NULL, p_sentence text DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'RS422', MESSAGE = p_code, DETAIL = coalesce(p_field, ''), HINT = coalesce(p_sentence, '');
END
$$;

-- The same with the numbers a client needs to fix it (docs/design.md §4's `data`, a JSON object): the
-- detail then carries {"field", "data"} as JSON. No defaults, so a call never matches both.
CREATE OR REPLACE FUNCTION raise_app(p_code text, p_field text, p_sentence text, p_data jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'RS422', MESSAGE = p_code, DETAIL = jsonb_build_object('field', p_field, 'data', p_data)::text,
                        HINT = coalesce(p_sentence, '');
END
$$;
