-- Providers' final answers recorded in one statement: one round trip and one commit for a whole
-- batch of answers (settlement.ts), each row locked for the statement only. p_answers is a JSON
-- array of {id, from_states, status, refund, message, sn, upstream_status, start_count, remains,
-- upstream_order_id, cost}; an answer is recorded only if its request is still in one of from_states
-- (another worker or the operator may have moved it on). Returns the ids recorded.
-- cost: what the provider says it charged (Digiflazz's price), replacing the planned cost: losses
-- are measured against the cost actually charged (docs/design.md §11c); absent, the planned cost stays.
-- refund: full gives the request's whole amount back, partial floor(amount × remains / quantity)
-- (an smm Partial), none nothing. A line whose requests have all ended is settled by the orders
-- module (orders/settlement.sql), with the last answer's reason on its refund.
-- An answer with `failover` (a definite failure before anything was delivered) moves the request to
-- its line's next source not yet tried that keeps the floor (fail_over_request); when none is left, 'or_refund'
-- records the answer as given and 'or_keep' (a refused connection) leaves the request as it was.
-- Every statement here, and in what it calls, finds its rows by key: the plans are fixed on keys (as
-- purchase()'s), not left to statistics. On tables analyzed while small (autovacuum off or behind),
-- PostgreSQL hashed a sequential scan of every request, line and order for each batch: at 396 h2h
-- purchases/s each answer took 3.8 ms of the database instead of 0.6 (answers-plan.test.ts).
CREATE OR REPLACE FUNCTION record_upstream_answers(p_answers jsonb) RETURNS SETOF bigint LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off
AS $$
DECLARE
  v_ids bigint[];
  v_lines bigint[];
  v_refunds bigint[];
  v_reasons text[];
  v_moved bigint[] := '{}';
  v_kept bigint[] := '{}';
  v_answer record;
BEGIN
  -- Orders first, as every writer of an order (operator cancel locks the order, then its requests).
  PERFORM lock_orders(ARRAY(
    SELECT DISTINCT d.order_id FROM dispatches d
     WHERE d.id IN (SELECT (a ->> 'id')::bigint FROM jsonb_array_elements(p_answers) a)));

  FOR v_answer IN SELECT a.id, a.from_states, a.failover, a.message, a.upstream_status
                    FROM jsonb_array_elements(p_answers) e(answer),
                         jsonb_to_record(e.answer) AS a(id bigint, from_states text[], failover text, message text, upstream_status text)
                   WHERE e.answer ? 'failover' LOOP
    IF fail_over_request(v_answer.id, v_answer.from_states, v_answer.message, v_answer.upstream_status) THEN
      v_moved := v_moved || v_answer.id;
    ELSIF v_answer.failover = 'or_keep' THEN
      v_kept := v_kept || v_answer.id;
    END IF;
  END LOOP;

  WITH answer AS (
    SELECT a.*, e.ord FROM jsonb_array_elements(p_answers) WITH ORDINALITY AS e(answer, ord),
           jsonb_to_record(e.answer) AS a(id bigint, from_states text[], status text, refund text, message text, sn text,
                                          upstream_status text, start_count integer, remains integer, upstream_order_id text,
                                          cost bigint)
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
           cost = coalesce(a.cost, d.cost),
           finished_at = clock_timestamp(),
           updated_at = clock_timestamp()
      FROM answer a
     WHERE d.id = a.id AND d.status = ANY (a.from_states) AND d.id <> ALL (v_moved || v_kept)
    RETURNING d.id, d.order_line_id, a.status, a.message, a.ord)
  SELECT array_agg(r.id),
         -- Per line, the reason of its last answer in the batch.
         array_agg(r.order_line_id) FILTER (WHERE r.last),
         array_agg(CASE WHEN r.status = 'failed' THEN left('provider: ' || coalesce(r.message, ''), 200) ELSE 'not delivered in full' END)
           FILTER (WHERE r.last)
    INTO v_ids, v_lines, v_reasons
    FROM (SELECT recorded.*, ord = max(ord) OVER (PARTITION BY order_line_id) AS last FROM recorded) r;
  RETURN QUERY SELECT unnest(v_moved);
  IF v_ids IS NULL THEN RETURN; END IF;

  -- Lines all of whose requests ended, with what they give back (seen now the updates above are).
  SELECT array_agg(s.line ORDER BY s.line), array_agg(s.refund ORDER BY s.line), array_agg(s.reason ORDER BY s.line)
    INTO v_lines, v_refunds, v_reasons
    FROM (SELECT u.line, u.reason, (SELECT sum(d.refund_amount) FROM dispatches d WHERE d.order_line_id = u.line)::bigint AS refund
            FROM unnest(v_lines, v_reasons) u(line, reason)
           WHERE NOT EXISTS (SELECT 1 FROM dispatches d WHERE d.order_line_id = u.line AND NOT dispatch_is_final(d.status))) s;
  PERFORM settle_lines(v_lines, v_refunds, v_reasons);
  RETURN QUERY SELECT unnest(v_ids);
END
$$;

-- A request that failed definitely before anything was delivered, sent on to the next source of its
-- item, of its kind, listed and outside its cut-off window now, that its chain (the requests it
-- replaced) has not tried and that keeps the floor at the price the buyer paid (cost ≤ max_cost,
-- docs/design.md §11c; NULL: no bound), whatever the item's price is now: it ends `failed`
-- with nothing to refund, and a new request takes its place (same line, target, amount) under a ref
-- of its own, the chain's first ref + '-F' + its length, which no purchase's ref can take (those
-- end in '-' and a number).
-- Never for a bill (its inquiry binds it to one provider) or a line the operator is canceling.
-- The caller holds the order's row. True when it moved on.
CREATE OR REPLACE FUNCTION fail_over_request(p_id bigint, p_from text[], p_reason text, p_upstream_status text)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  v_d dispatches%ROWTYPE;
  v_item items%ROWTYPE;
  v_provider text;
  v_code text;
  v_price numeric;
  v_root text;
  v_depth integer;
  v_units numeric;
BEGIN
  SELECT d.* INTO v_d FROM dispatches d JOIN order_lines l ON l.id = d.order_line_id
   WHERE d.id = p_id AND d.status = ANY (p_from) AND NOT d.options ? 'postpaid' AND l.status IN ('pending', 'processing')
     FOR NO KEY UPDATE OF d;
  IF NOT FOUND THEN RETURN false; END IF;
  SELECT it.* INTO v_item FROM items it JOIN order_lines l ON l.item_id = it.id WHERE l.id = v_d.order_line_id;
  -- Units of the item's price the request buys, as plan_dispatches counts them for its cost.
  v_units := CASE WHEN v_d.options ? 'qty' THEN units_of_price(v_item.provider_meta, v_d.quantity)
                  ELSE v_d.quantity END;
  WITH RECURSIVE chain AS (
    SELECT d.id, d.failover_of, d.provider, d.provider_code, d.upstream_ref, 1 AS depth FROM dispatches d WHERE d.id = p_id
    UNION ALL
    SELECT d.id, d.failover_of, d.provider, d.provider_code, d.upstream_ref, c.depth + 1 FROM dispatches d JOIN chain c ON d.id = c.failover_of)
  -- A source with no listed price passes, as item_source_states counts it within the floor.
  SELECT s.provider, s.code, s.price, (SELECT c.upstream_ref FROM chain c WHERE c.failover_of IS NULL), (SELECT max(c.depth) FROM chain c)
    INTO v_provider, v_code, v_price, v_root, v_depth
    FROM item_source_states(v_item.id, now()) s
   WHERE s.listed AND NOT s.in_cut_off AND s.kind = v_d.kind
     AND NOT EXISTS (SELECT 1 FROM chain c WHERE c.provider = s.provider AND c.provider_code = s.code)
     AND (v_d.max_cost IS NULL OR s.price IS NULL OR cost_of(s.price, v_units) <= v_d.max_cost)
     AND source_funded(s.provider, cost_of(s.price, v_units))
   ORDER BY s.priority LIMIT 1;
  IF NOT FOUND THEN RETURN false; END IF;

  UPDATE dispatches
     SET status = 'failed', refund_amount = 0, sn = NULL, message = left('failed over to ' || v_provider || ': ' || coalesce(p_reason, ''), 500),
         upstream_status = coalesce(p_upstream_status, upstream_status), finished_at = clock_timestamp(), updated_at = clock_timestamp()
   WHERE id = p_id;
  INSERT INTO dispatches (order_id, order_line_id, seq, provider, kind, upstream_ref, provider_code, target, options, quantity, amount, cost,
                          max_cost, failover_of)
  VALUES (v_d.order_id, v_d.order_line_id, (SELECT max(d.seq) + 1 FROM dispatches d WHERE d.order_line_id = v_d.order_line_id),
          v_provider, v_d.kind, v_root || '-F' || v_depth, v_code, v_d.target, v_d.options, v_d.quantity, v_d.amount,
          cost_of(v_price, v_units), v_d.max_cost, p_id);
  IF pg_try_advisory_xact_lock(dispatch_bell_lock_class(), 0) THEN PERFORM pg_notify('dispatch', ''); END IF;
  RETURN true;
END
$$;
