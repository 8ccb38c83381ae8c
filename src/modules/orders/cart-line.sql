-- A cart line's note and size rules (docs/design.md §5), for purchase() and the sandbox alike: the target an
-- h2h or smm line needs, the smm JSON note, an open denomination's provider_qty and what it costs,
-- a postpaid bill's single payment (its cost is its inquiry's: purchase() prices it).
-- p_field prefixes field paths ('carts.0'; NULL for a body of one item). Answers the note as stored
-- (trimmed), the upstream target and options, the provider units asked for (open denominations,
-- else NULL) and the line's cost, at most money_max() (the purchase and the sandbox refuse a dearer line here, alike).
CREATE OR REPLACE FUNCTION check_cart_line(p_field text, p_item items, p_quantity integer, p_note text,
                                           OUT note text, OUT target text, OUT options jsonb, OUT provider_qty integer, OUT cost numeric)
LANGUAGE plpgsql AS $$
DECLARE
  v_process text := p_item.order_process;
  v_meta jsonb := coalesce(p_item.provider_meta, '{}');
  v_open boolean := p_item.order_process = 'h2h' AND coalesce((p_item.provider_meta->>'open_denom')::boolean, false);
  v_note_field text := concat_ws('.', p_field, 'note');
  v_json jsonb;
  v_min bigint;
  v_max bigint;
  v_step bigint;
  v_unit bigint;
  v_bounds text;
BEGIN
  note := nullif(btrim(p_note), '');
  cost := p_item.price::numeric * p_quantity;
  options := '{}';
  IF note IS NULL AND provider_kind_of(v_process) IS NOT NULL THEN
    PERFORM raise_app('REQUIRED_FIELD_MISSING', v_note_field,
                      CASE WHEN v_open THEN 'is required: a JSON object such as {"target": "081234567890", "provider_qty": ' || coalesce(v_meta->>'min_qty', '1') || '}'
                           ELSE 'the target number, account or link is required' END);
  END IF;
  IF note IS NOT NULL AND left(note, 1) = '{' AND (v_process = 'smm' OR v_open) THEN
    BEGIN
      v_json := note::jsonb;
    EXCEPTION WHEN others THEN
      v_json := NULL;
    END;
    IF v_json IS NULL OR jsonb_typeof(v_json) <> 'object' OR jsonb_typeof(v_json->'target') IS DISTINCT FROM 'string'
       OR btrim(v_json->>'target') = '' THEN
      IF v_process = 'smm' THEN
        PERFORM raise_app('SMM_ORDER_REQUIRES_JSON_NOTE', v_note_field,
                          'must be the target link, or a JSON object such as {"target": "https://instagram.com/shop", "comment_smm": "..."}');
      END IF;
      PERFORM raise_app('VALIDATION_ERROR', v_note_field, 'must be a JSON object with a target');
    END IF;
    IF length(v_json->>'target') > 50 THEN
      PERFORM raise_app('VALIDATION_ERROR', v_note_field, 'target must be at most 50 characters');
    END IF;
  ELSIF length(note) > 50 THEN
    PERFORM raise_app('VALIDATION_ERROR', v_note_field, 'must be at most 50 characters');
  END IF;
  IF v_process = 'h2h' AND coalesce((v_meta->>'postpaid')::boolean, false) AND p_quantity <> 1 THEN
    PERFORM raise_app('VALIDATION_ERROR', concat_ws('.', p_field, 'quantity'), 'must be 1 for a postpaid bill: one payment per inquiry');
  END IF;
  target := CASE
    WHEN v_json IS NULL THEN note
    WHEN v_process = 'h2h' THEN btrim(v_json->>'target') || coalesce(btrim(v_json->>'zone_id'), '')
    ELSE btrim(v_json->>'target') END;
  IF v_process = 'smm' AND v_json IS NOT NULL THEN
    options := jsonb_strip_nulls(jsonb_build_object('comments', v_json->>'comment_smm', 'opt', v_json->>'opt_smm'));
  END IF;
  IF v_open THEN
    -- The nominal is priced by what the provider delivers; nothing uncharged is ever forwarded.
    v_min := coalesce((v_meta->>'min_qty')::bigint, 1);
    v_max := coalesce((v_meta->>'max_qty')::bigint, 999999999);
    v_step := coalesce((v_meta->>'step_qty')::bigint, 1);
    v_unit := greatest(coalesce((v_meta->>'price_unit')::bigint, 1), 1);
    v_bounds := 'an integer from ' || v_min || ' to ' || v_max || CASE WHEN v_step > 1 THEN ', in steps of ' || v_step || ' from ' || v_min ELSE '' END;
    IF v_json IS NULL OR NOT (v_json ? 'provider_qty') THEN
      PERFORM raise_app('VALIDATION_ERROR', v_note_field,
                        'must be a JSON object with target and provider_qty (' || v_bounds || '), e.g. {"target": "081234567890", "provider_qty": ' || v_min || '}');
    END IF;
    IF jsonb_typeof(v_json->'provider_qty') <> 'number' OR (v_json->>'provider_qty') !~ '^[1-9][0-9]{0,8}$'
       OR (v_json->>'provider_qty')::bigint < v_min OR (v_json->>'provider_qty')::bigint > v_max
       OR ((v_json->>'provider_qty')::bigint - v_min) % v_step <> 0 THEN
      PERFORM raise_app('VALIDATION_ERROR', v_note_field, 'provider_qty must be ' || v_bounds);
    END IF;
    IF p_quantity <> 1 THEN
      PERFORM raise_app('VALIDATION_ERROR', concat_ws('.', p_field, 'quantity'), 'must be 1 for an open denomination: the nominal goes in the note''s provider_qty');
    END IF;
    provider_qty := (v_json->>'provider_qty')::integer;
    cost := ceil(p_item.price::numeric * provider_qty / v_unit);
  END IF;
  -- In numeric: an open denomination's size times its price can pass what a bigint holds.
  IF cost > money_max() THEN
    PERFORM raise_app('VALIDATION_ERROR', v_note_field, 'the line would cost more than ' || money_max());
  END IF;
END
$$;
