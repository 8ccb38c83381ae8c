-- The states of an upstream request (dispatches.status, docs/design.md §5): queued → sending → pending,
-- or review, until a final one. A final request is never sent or asked about again; its line settles
-- once every request of it is final (checkout/settlement.sql, settlement.ts), and an operator cancel
-- waits for the provider's answer to every request still out (unsent-requests.queries.ts).
-- The one list of the final states: completed, failed (its refund_amount given back), void (canceled
-- before it was sent).
CREATE OR REPLACE FUNCTION dispatch_is_final(p_status text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT p_status IN ('completed', 'failed', 'void')
$$;

-- What a provider's completed requests cost in the last 24 hours (docs/design.md §11e): the rate its
-- balance runs down at. The one spelling of it for GET /providers/{code}/balance, the low-balance
-- alert's hours left and the /metrics gauge (the partial index dispatches_provider_finished_idx).
CREATE OR REPLACE FUNCTION provider_spent_24h(p_provider text) RETURNS numeric LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(d.cost), 0) FROM dispatches d
   WHERE d.provider = p_provider AND d.status = 'completed' AND d.finished_at > now() - interval '24 hours'
$$;
