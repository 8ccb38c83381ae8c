import { sql } from 'kysely'
import { inTransaction, type Database } from '../../db/database.js'
import type { Dispatch } from '../../db/schema.js'

// A claim is a short transaction: rows are taken with SKIP LOCKED and leased by next_attempt_at,
// so no other worker takes them, and the network call happens after COMMIT, under no row lock.

/**
 * Queued requests of active providers (of one line, for the LineDispatcher seam). An h2h request
 * turns `pending` at once: its ref_id makes a repeat a status check, so a crash is harmless. An smm
 * `add` turns `sending` for `leaseSeconds`: past that without an answer it goes to review.
 */
export async function claimQueued(
  db: Database,
  o: { limit: number; pollSeconds: number; leaseSeconds: number; lineId?: number },
): Promise<Dispatch[]> {
  return inTransaction(db, async (trx) => {
    const { rows } = await sql<Dispatch>`
      WITH picked AS (
        SELECT d.id FROM dispatches d JOIN providers p ON p.code = d.provider
         WHERE d.status = 'queued' AND d.next_attempt_at <= now() AND p.active
           AND (${o.lineId ?? null}::bigint IS NULL OR d.order_line_id = ${o.lineId ?? null}::bigint)
         ORDER BY d.next_attempt_at, d.id LIMIT ${o.limit} FOR UPDATE OF d SKIP LOCKED)
      UPDATE dispatches d
         SET status = CASE WHEN d.kind = 'smm_panel' THEN 'sending' ELSE 'pending' END,
             attempts = d.attempts + 1, first_sent_at = coalesce(d.first_sent_at, now()), updated_at = now(),
             next_attempt_at = now() + make_interval(secs => CASE WHEN d.kind = 'smm_panel' THEN ${o.leaseSeconds}::integer ELSE ${o.pollSeconds}::integer END)
        FROM picked WHERE d.id = picked.id
      RETURNING d.*`.execute(trx)
    if (rows.length > 0) {
      await trx
        .updateTable('order_lines')
        .set({ status: 'processing' })
        .where('id', 'in', [...new Set(rows.map((r) => r.order_line_id))])
        .where('status', '=', 'pending')
        .execute()
    }
    return rows
  })
}

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

/**
 * Pending h2h requests due for a re-check. One whose first send is older than the provider keeps
 * its ref_id goes to review instead (returned with status `review`, not to be sent).
 */
export async function claimPendingH2h(db: Database, o: { limit: number; pollSeconds: number }): Promise<Dispatch[]> {
  const { rows } = await sql<Dispatch>`
    WITH picked AS (
      SELECT id FROM dispatches WHERE status = 'pending' AND kind = 'digiflazz' AND next_attempt_at <= now()
       ORDER BY next_attempt_at, id LIMIT ${o.limit} FOR UPDATE SKIP LOCKED)
    UPDATE dispatches d
       SET status = CASE WHEN d.first_sent_at < now() - make_interval(days => ${H2H_REF_DAYS}::integer) THEN 'review' ELSE 'pending' END,
           message = CASE WHEN d.first_sent_at < now() - make_interval(days => ${H2H_REF_DAYS}::integer)
                          THEN 'pending for 90 days: a re-check now would place a new order; ask the provider, then resolve' ELSE d.message END,
           attempts = d.attempts + 1, updated_at = now(), next_attempt_at = now() + make_interval(secs => ${o.pollSeconds}::integer)
      FROM picked WHERE d.id = picked.id
    RETURNING d.*`.execute(db)
  return rows
}

/** Placed smm orders due for a status check. */
export async function claimRunningSmm(db: Database, o: { limit: number; pollSeconds: number }): Promise<Dispatch[]> {
  const { rows } = await sql<Dispatch>`
    WITH picked AS (
      SELECT id FROM dispatches
       WHERE status = 'pending' AND kind = 'smm_panel' AND upstream_order_id IS NOT NULL AND next_attempt_at <= now()
       ORDER BY next_attempt_at, id LIMIT ${o.limit} FOR UPDATE SKIP LOCKED)
    UPDATE dispatches d SET attempts = d.attempts + 1, updated_at = now(), next_attempt_at = now() + make_interval(secs => ${o.pollSeconds}::integer)
      FROM picked WHERE d.id = picked.id
    RETURNING d.*`.execute(db)
  return rows
}
