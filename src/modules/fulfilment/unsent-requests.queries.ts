import { sql } from 'kysely'
import type { Trx } from '../../db/database.js'

/**
 * Operator cancel, upstream side: the order's requests are locked (waiting for a claim in progress
 * to commit), those never sent are voided with their amount to refund, and the lines that still
 * have a request at a provider (sent, sending, in review) are returned: they await its answer.
 */
export async function withdrawUnsentRequests(trx: Trx, orderId: number): Promise<Set<number>> {
  const rows = await trx
    .selectFrom('dispatches')
    .select(['id', 'order_line_id', 'status', sql<boolean>`dispatch_is_final(status)`.as('final')])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .forUpdate()
    .execute()
  const unsent = rows.filter((r) => r.status === 'queued').map((r) => r.id)
  if (unsent.length > 0) {
    await trx
      .updateTable('dispatches')
      .set({
        status: 'void',
        refund_amount: sql`amount`,
        message: 'canceled by the operator before it was sent',
        finished_at: sql`clock_timestamp()`,
        updated_at: sql`clock_timestamp()`,
      })
      .where('id', 'in', unsent)
      .where('status', '=', 'queued')
      .execute()
  }
  return new Set(rows.filter((r) => r.status !== 'queued' && !r.final).map((r) => r.order_line_id))
}
