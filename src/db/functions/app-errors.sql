-- A refusal raised in SQL: the message is an error code of src/errors.ts, the detail a field path,
-- the hint the field's sentence. Decoded by appErrorFromDatabase (app-errors.ts).
CREATE OR REPLACE FUNCTION raise_app(p_code text, p_field text DEFAULT NULL, p_sentence text DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'RS422', MESSAGE = p_code, DETAIL = coalesce(p_field, ''), HINT = coalesce(p_sentence, '');
END
$$;
