import { sql } from 'kysely'
import { retrying, type Database } from '../../db/database.js'
import type { Dispatch } from '../../db/schema.js'

// A claim is a short transaction: rows are taken with SKIP LOCKED and leased by next_attempt_at,
// so no other worker takes them, and the network call happens after COMMIT, under no row lock.

/** smm adds whose answer was never recorded past their lease (a crash mid-call): operator review, never a second add. */
export async function sendingToReview(db: Database): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    UPDATE dispatches SET status = 'review', updated_at = now(),
           message = 'add sent, answer never recorded (the process stopped?): look the order up at the panel, then resolve as placed or failed'
     WHERE id IN (SELECT id FROM dispatches WHERE status = 'sending' AND next_attempt_at <= now() FOR UPDATE SKIP LOCKED)
    RETURNING id`.execute(db)
  return rows.length
}

// Digiflazz keeps a ref_id for 90 days; re-sent later it would be a new order. A day of margin.
const H2H_REF_DAYS = 89

/** Placed smm orders due for a status check. */
export async function claimRunningSmm(db: Database, o: { limit: number; pollSeconds: number }): Promise<Dispatch[]> {
  const { rows } = await sql<Dispatch>`
    WITH picked AS (
      SELECT id FROM dispatches
       WHERE status = 'pending' AND kind = 'smm_panel' AND upstream_order_id IS NOT NULL AND next_attempt_at <= now()
       ORDER BY next_attempt_at, id LIMIT ${o.limit} FOR UPDATE SKIP LOCKED)
    UPDATE dispatches d SET attempts = d.attempts + 1, updated_at = now(), next_attempt_at = now() + make_interval(secs => ${o.pollSeconds}::integer)
     WHERE d.id = ANY (ARRAY(SELECT id FROM picked))
    RETURNING d.*`.execute(db)
  return rows
}

/**
 * The upstream worker's claim (claim_due_requests, claims.sql): due requests of the given providers
 * (one host's), queued ones and pending h2h re-checks alike, at most `limit`. A claimed request's
 * next_attempt_at moves past the call and its recording (`leaseSeconds`), so no process re-checks it
 * while it is still out; the answer sets the next check (upstream-calls.service.ts). An smm `add`
 * turns `sending` as in claimQueued.
 */
export async function claimDue(
  db: Database,
  o: { providers: string[]; limit: number; pollSeconds: number; leaseSeconds: number; lineId?: number },
): Promise<Dispatch[]> {
  const { rows } = await retrying(() =>
    sql<Dispatch>`
      SELECT * FROM claim_due_requests(${o.providers}::text[], ${o.limit}::integer, ${o.lineId ?? null}::bigint,
                                       ${o.pollSeconds}::integer, ${o.leaseSeconds}::integer, ${H2H_REF_DAYS}::integer)`.execute(db),
  )
  return rows
}

/**
 * Claimed requests a stopping worker never sent, handed back at once for another worker: a first
 * send back to `queued` as if never claimed (an smm `add` that never reached the panel is no case
 * for review; an operator cancel voids it), an h2h re-check due now. Each only while its claim (by
 * `attempts`) stands.
 */
export async function handBackUnsent(db: Database, rows: Pick<Dispatch, 'id' | 'attempts'>[]): Promise<number> {
  if (rows.length === 0) return 0
  const { rows: back } = await sql<{ id: number }>`
    UPDATE dispatches d
       SET status = CASE WHEN d.status = 'sending' OR d.attempts = 1 THEN 'queued' ELSE d.status END,
           first_sent_at = CASE WHEN d.attempts = 1 THEN NULL ELSE d.first_sent_at END,
           attempts = d.attempts - 1, next_attempt_at = now(), updated_at = now()
      FROM unnest(${rows.map((r) => r.id)}::bigint[], ${rows.map((r) => r.attempts)}::integer[]) c(id, attempts)
     WHERE d.id = c.id AND d.attempts = c.attempts AND d.status IN ('sending', 'pending')
    RETURNING d.id`.execute(db)
  return back.length
}

/** When the upstream worker next has something to do (a queued request, an h2h re-check, an smm lease running out), if ever. */
export async function earliestDispatchDue(db: Database): Promise<Date | null> {
  const { rows } = await sql<{ due: Date | null }>`SELECT next_request_due() AS due`.execute(db)
  return rows[0]?.due ?? null
}
