-- Providers' final answers recorded in one statement: one round trip and one commit for a whole
-- batch of answers (settlement.ts), each row locked for the statement only. p_answers is a JSON
-- array of {id, from_states, status, refund, message, sn, upstream_status, start_count, remains,
-- upstream_order_id}; an answer is recorded only if its request is still in one of from_states
-- (another worker or the operator may have moved it on). Returns the ids recorded.
-- refund: full gives the request's whole amount back, partial floor(amount × remains / quantity)
-- (an smm Partial), none nothing. A line whose requests have all ended is settled by the orders
-- module (orders/settlement.sql), with the last answer's reason on its refund.
CREATE OR REPLACE FUNCTION record_upstream_answers(p_answers jsonb) RETURNS SETOF bigint LANGUAGE plpgsql AS $$
DECLARE
  v_ids bigint[];
  v_lines bigint[];
  v_refunds bigint[];
  v_reasons text[];
BEGIN
  -- Orders first, as every writer of an order (operator cancel locks the order, then its requests).
  PERFORM lock_orders(ARRAY(
    SELECT DISTINCT d.order_id FROM dispatches d
     WHERE d.id IN (SELECT (a ->> 'id')::bigint FROM jsonb_array_elements(p_answers) a)));

  WITH answer AS (
    SELECT a.*, e.ord FROM jsonb_array_elements(p_answers) WITH ORDINALITY AS e(answer, ord),
           jsonb_to_record(e.answer) AS a(id bigint, from_states text[], status text, refund text, message text, sn text,
                                          upstream_status text, start_count integer, remains integer, upstream_order_id text)
  ), recorded AS (
    UPDATE dispatches d
       SET status = a.status,
           refund_amount = CASE a.refund WHEN 'full' THEN d.amount
                                         WHEN 'partial' THEN floor(d.amount::numeric * least(coalesce(a.remains, 0)::bigint, d.quantity) / d.quantity)::bigint
                                         ELSE 0 END,
           message = a.message,
           sn = a.sn,
           upstream_status = coalesce(a.upstream_status, d.upstream_status),
           upstream_order_id = coalesce(a.upstream_order_id, d.upstream_order_id),
           start_count = coalesce(a.start_count, d.start_count),
           remains = coalesce(a.remains, d.remains),
           finished_at = clock_timestamp(),
           updated_at = clock_timestamp()
      FROM answer a
     WHERE d.id = a.id AND d.status = ANY (a.from_states)
    RETURNING d.id, d.order_line_id, a.status, a.message, a.ord)
  SELECT array_agg(r.id),
         -- Per line, the reason of its last answer in the batch.
         array_agg(r.order_line_id) FILTER (WHERE r.last),
         array_agg(CASE WHEN r.status = 'failed' THEN left('provider: ' || coalesce(r.message, ''), 200) ELSE 'not delivered in full' END)
           FILTER (WHERE r.last)
    INTO v_ids, v_lines, v_reasons
    FROM (SELECT recorded.*, ord = max(ord) OVER (PARTITION BY order_line_id) AS last FROM recorded) r;
  IF v_ids IS NULL THEN RETURN; END IF;

  -- Lines all of whose requests ended, with what they give back (seen now the updates above are).
  SELECT array_agg(s.line ORDER BY s.line), array_agg(s.refund ORDER BY s.line), array_agg(s.reason ORDER BY s.line)
    INTO v_lines, v_refunds, v_reasons
    FROM (SELECT u.line, u.reason, (SELECT sum(d.refund_amount) FROM dispatches d WHERE d.order_line_id = u.line)::bigint AS refund
            FROM unnest(v_lines, v_reasons) u(line, reason)
           WHERE NOT EXISTS (SELECT 1 FROM dispatches d WHERE d.order_line_id = u.line AND d.status NOT IN ('completed', 'failed', 'void'))) s;
  PERFORM settle_lines(v_lines, v_refunds, v_reasons);
  RETURN QUERY SELECT unnest(v_ids);
END
$$;
