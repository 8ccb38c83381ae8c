-- The states of an upstream request (dispatches.status, docs/design.md §5): queued → sending → pending,
-- or review, until a final one. A final request is never sent or asked about again; its line settles
-- once every request of it is final (checkout/settlement.sql, settlement.ts), and an operator cancel
-- waits for the provider's answer to every request still out (unsent-requests.queries.ts).
-- The one list of the final states: completed, failed (its refund_amount given back), void (canceled
-- before it was sent).
CREATE OR REPLACE FUNCTION dispatch_is_final(p_status text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT p_status IN ('completed', 'failed', 'void')
$$;
