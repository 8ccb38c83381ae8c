-- The audit log (docs/design.md §11d): one row per row an operator's write changed, appended in
-- that write's own transaction by a trigger on each audited table (migration 0340), with the
-- operator, action and address that db/acting.ts set on the connection for the request.

-- Columns whose values never enter the log, only whether they changed: secrets, digests, licenses.
CREATE OR REPLACE FUNCTION audit_redacts(p_column text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT p_column ~ '(_enc|_hash|_hashes|secret|password|fingerprint)$'
$$;

CREATE OR REPLACE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    v_old jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;
    v_new jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;
    v_row jsonb := coalesce(v_new, v_old);
    v_changes jsonb := '{}';
    v_column text;
    v_before jsonb;
    v_after jsonb;
  BEGIN
    FOR v_column IN SELECT jsonb_object_keys(v_row) LOOP
      CONTINUE WHEN v_column = 'updated_at';
      v_before := v_old -> v_column;
      v_after := v_new -> v_column;
      CONTINUE WHEN v_before IS NOT DISTINCT FROM v_after OR (TG_OP = 'INSERT' AND v_after = 'null'::jsonb);
      IF audit_redacts(v_column) THEN
        v_before := CASE WHEN v_before IS NULL OR v_before = 'null'::jsonb THEN v_before ELSE '"[redacted]"' END;
        v_after := CASE WHEN v_after IS NULL OR v_after = 'null'::jsonb THEN v_after ELSE '"[redacted]"' END;
      END IF;
      v_changes := v_changes || jsonb_build_object(v_column, jsonb_build_object('before', v_before, 'after', v_after));
    END LOOP;
    IF v_changes = '{}' THEN RETURN NULL; END IF;
    INSERT INTO audit_log (actor_id, actor, role, client_ip, request_id, action, target_type, target_id, change, changes)
    VALUES (
      nullif(current_setting('audit.actor_id', true), '')::bigint,
      current_setting('audit.actor', true),
      current_setting('audit.role', true),
      nullif(current_setting('audit.client_ip', true), ''),
      nullif(current_setting('audit.request_id', true), ''),
      current_setting('audit.action', true),
      TG_TABLE_NAME,
      (SELECT string_agg(v_row ->> t.k, ':' ORDER BY t.n) FROM unnest(string_to_array(TG_ARGV[0], ',')) WITH ORDINALITY AS t(k, n)),
      lower(TG_OP),
      v_changes
    );
    RETURN NULL;
  END
$$;

-- Append-only: nothing in the service updates, deletes or truncates it, and a trigger refuses whoever tries.
CREATE OR REPLACE FUNCTION refuse_audit_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    RAISE EXCEPTION 'the audit log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
  END
$$;
