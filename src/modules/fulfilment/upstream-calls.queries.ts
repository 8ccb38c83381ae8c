import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

// The upstream calls' own changes of a request between its claim and its final answer (which
// the RecordFinal records): each conditional on the status the call found it in.

/**
 * Not final: the request stays pending with what was heard, re-checked after the poll interval
 * from now (the claim had moved it past the call), a tenth of it at random later so that
 * requests sent together are not all checked together.
 */
export async function notePendingAnswer(
  db: Database,
  dispatchId: number,
  message: string,
  pollSeconds: number,
  extra: { upstream_status?: string; start_count?: number | null; remains?: number | null } = {},
): Promise<void> {
  const from = 'pending'
  await db
    .updateTable('dispatches')
    .set({
      message: message.slice(0, 500),
      ...extra,
      updated_at: sql`now()`,
      next_attempt_at: sql`now() + make_interval(secs => ${pollSeconds}::integer * (1 + random() / 10))`,
    })
    .where('id', '=', dispatchId)
    .where('status', '=', from)
    .execute()
}

/** Marks a bill's payment as sent (`upstreamStatus`) unless a mark is there already; true for the one that set it. */
export async function markBillPaymentSent(db: Database, dispatchId: number, upstreamStatus: string): Promise<boolean> {
  const marked = await db
    .updateTable('dispatches')
    .set({ upstream_status: upstreamStatus, updated_at: sql`now()` })
    .where('id', '=', dispatchId)
    .where('upstream_status', 'is', null)
    .executeTakeFirst()
  return marked.numUpdatedRows > 0n
}

/** An smm `add` that reached no panel: queued again, due after the poll interval. */
export async function requeueSmmAdd(db: Database, dispatchId: number, message: string, pollSeconds: number): Promise<void> {
  await db
    .updateTable('dispatches')
    .set({
      status: 'queued',
      message,
      updated_at: sql`now()`,
      next_attempt_at: sql`now() + make_interval(secs => ${pollSeconds}::integer)`,
    })
    .where('id', '=', dispatchId)
    .where('status', '=', 'sending')
    .execute()
}

/** An smm `add` the panel took: pending under the panel's order id, first polled after the interval. */
export async function notePlacedSmm(db: Database, dispatchId: number, upstreamOrderId: string, pollSeconds: number): Promise<void> {
  await db
    .updateTable('dispatches')
    .set({
      status: 'pending',
      upstream_order_id: upstreamOrderId,
      upstream_status: 'Pending',
      message: null,
      updated_at: sql`now()`,
      next_attempt_at: sql`now() + make_interval(secs => ${pollSeconds}::integer)`,
    })
    .where('id', '=', dispatchId)
    .where('status', 'in', ['sending', 'review'])
    .execute()
}

/** An smm `add` whose answer tells nothing: to the operator's review, never sent again. */
export async function sendSmmToReview(db: Database, dispatchId: number, message: string): Promise<void> {
  await db
    .updateTable('dispatches')
    .set({ status: 'review', message, updated_at: sql`now()` })
    .where('id', '=', dispatchId)
    .where('status', '=', 'sending')
    .execute()
}
