-- The upstream worker's claim (claims.queries.ts): due requests of the given providers (one host's),
-- queued ones and pending h2h re-checks alike, at most p_limit, taken with SKIP LOCKED. A claimed
-- request's next_attempt_at moves past the call and its recording (p_lease_seconds); an smm `add`
-- turns `sending`, a pending h2h request past the provider's ref_id memory (p_ref_days) `review`; the
-- lines of first sends turn `processing` (start_upstream_lines, orders/settlement.sql) with the claim.
-- The plan is fixed here, not left to statistics: on a table analyzed small or never (autovacuum
-- off) PostgreSQL read every due request, tested each one's funding and sorted them, at each claim;
-- the due index walked in (next_attempt_at, id) order stops at the batch (claim-plan.test.ts).
CREATE OR REPLACE FUNCTION claim_due_requests(p_providers text[], p_limit integer, p_line bigint, p_poll_seconds integer,
                                              p_lease_seconds integer, p_ref_days integer) RETURNS SETOF dispatches
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off SET enable_bitmapscan = off SET enable_sort = off
SET enable_hashjoin = off SET enable_mergejoin = off
AS $$
BEGIN
  RETURN QUERY
  WITH picked AS (
    SELECT d.id FROM dispatches d JOIN providers p ON p.code = d.provider
     WHERE d.status IN ('queued', 'pending') AND d.next_attempt_at <= now() AND d.provider = ANY (p_providers)
       AND (p_line IS NULL OR d.order_line_id = p_line)
       -- A switched-off provider gets no new requests, but what it has is still checked; a request its
       -- provider's known balance cannot pay for waits for a read that says it can (docs/design.md §11e).
       AND ((d.status = 'queued' AND p.active AND source_funded(d.provider, d.cost))
            OR (d.status = 'pending' AND d.kind = 'digiflazz'))
     ORDER BY d.next_attempt_at, d.id LIMIT p_limit FOR UPDATE OF d SKIP LOCKED),
  claimed AS (
    UPDATE dispatches d
       SET status = CASE WHEN d.status = 'queued' AND d.kind = 'smm_panel' THEN 'sending'
                         WHEN d.status = 'pending' AND d.first_sent_at < now() - make_interval(days => p_ref_days) THEN 'review'
                         ELSE 'pending' END,
           message = CASE WHEN d.status = 'pending' AND d.first_sent_at < now() - make_interval(days => p_ref_days)
                          THEN 'pending for 90 days: a re-check now would place a new order; ask the provider, then resolve' ELSE d.message END,
           attempts = d.attempts + 1, first_sent_at = coalesce(d.first_sent_at, now()), updated_at = now(),
           next_attempt_at = now() + make_interval(secs => CASE WHEN d.kind = 'smm_panel' THEN p_lease_seconds
                                                               ELSE greatest(p_lease_seconds, p_poll_seconds) END)
     -- By the primary key, row by row: a join to the CTE may be planned as a scan of every request.
     WHERE d.id = ANY (ARRAY(SELECT id FROM picked))
    RETURNING d.*),
  started AS (SELECT start_upstream_lines(ARRAY(SELECT DISTINCT order_line_id FROM claimed WHERE attempts = 1)) AS done)
  SELECT claimed.* FROM claimed, started;
END
$$;

-- When the upstream worker next has something to do (a queued request, an h2h re-check, an smm lease
-- running out), if ever: the first due request in the due index's order, as the claim walks it.
CREATE OR REPLACE FUNCTION next_request_due() RETURNS timestamptz
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off SET enable_bitmapscan = off SET enable_sort = off
AS $$
BEGIN
  RETURN (SELECT d.next_attempt_at FROM dispatches d JOIN providers p ON p.code = d.provider
           WHERE d.status IN ('queued', 'sending', 'pending')
             -- A request its provider cannot pay for is not due (the claim leaves it): the poll finds it once a read says it can.
             AND ((d.status = 'queued' AND p.active AND source_funded(d.provider, d.cost)) OR d.status = 'sending'
                  OR (d.status = 'pending' AND d.kind = 'digiflazz'))
           ORDER BY d.next_attempt_at, d.id LIMIT 1);
END
$$;
