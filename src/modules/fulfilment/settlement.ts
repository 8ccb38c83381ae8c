import { sql } from 'kysely'
import { inTransaction, type Database, type Trx } from '../../db/database.js'
import type { Dispatch, DispatchStatus } from '../../db/schema.js'
import { creditBalance } from '../ledger/ledger.service.js'
import { lockOrder, settleOrder } from '../orders/order-state.js'

export const FINAL_DISPATCH: DispatchStatus[] = ['completed', 'failed', 'void']

/**
 * Closes a line once every request of it has a final answer: `refunded` when nothing was delivered,
 * else `delivered` with the failed requests' (and an smm Partial's) money as its refund. The
 * conditional update wins once; the caller credits the returned refund after its item rows.
 */
export async function settleLine(trx: Trx, lineId: number): Promise<{ lineId: number; amount: number } | undefined> {
  const rows = await trx.selectFrom('dispatches').select(['status', 'refund_amount']).where('order_line_id', '=', lineId).execute()
  if (rows.length === 0 || rows.some((r) => !FINAL_DISPATCH.includes(r.status))) return undefined
  const line = await trx.selectFrom('order_lines').select(['subtotal']).where('id', '=', lineId).executeTakeFirstOrThrow()
  const refund = Math.min(
    line.subtotal,
    rows.reduce((sum, r) => sum + Number(r.refund_amount), 0),
  )
  const nothingDelivered = refund >= line.subtotal
  const settled = await trx
    .updateTable('order_lines')
    .set({
      status: nothingDelivered ? 'refunded' : 'delivered',
      refunded_amount: refund,
      delivered_at: nothingDelivered ? null : sql`clock_timestamp()`,
    })
    .where('id', '=', lineId)
    .where('refunded_amount', '=', 0)
    .where('status', 'in', ['pending', 'processing', 'cancel_requested'])
    .returning(['id', 'stock_taken', 'item_id'])
    .executeTakeFirst()
  if (!settled) return undefined
  // A line that delivered nothing gives back the limited stock it took, like an operator cancel.
  if (nothingDelivered && settled.stock_taken > 0) {
    await trx
      .updateTable('items')
      .set({ stock: sql`stock + ${settled.stock_taken}`, updated_at: sql`clock_timestamp()` })
      .where('id', '=', settled.item_id)
      .execute()
  }
  return { lineId, amount: refund }
}

export type FinalAnswer = {
  status: 'completed' | 'failed'
  /** full: the request's whole amount back; partial: floor(amount × remains / quantity) (smm Partial). */
  refund: 'none' | 'full' | 'partial'
  message: string
  sn?: string | null
  upstreamStatus?: string | null
  startCount?: number | null
  remains?: number | null
  upstreamOrderId?: string
}

/**
 * Records a provider's final answer in one short transaction: the order row first (every writer of
 * an order goes through it), the dispatch if it is still in one of `from`, then its line, the refund
 * and the order's status. False when the row had already moved on (another worker, the operator).
 */
export async function recordFinal(
  db: Database,
  d: Pick<Dispatch, 'id' | 'order_id' | 'order_line_id'>,
  answer: FinalAnswer,
  from: DispatchStatus[],
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, d.order_id)
    const refund =
      answer.refund === 'full'
        ? sql<number>`amount`
        : answer.refund === 'partial'
          ? sql<number>`floor(amount::numeric * least(${answer.remains ?? 0}::bigint, quantity) / quantity)::bigint`
          : sql<number>`0`
    const updated = await trx
      .updateTable('dispatches')
      .set({
        status: answer.status,
        refund_amount: refund,
        message: answer.message,
        sn: answer.sn ?? null,
        upstream_status: answer.upstreamStatus ?? undefined,
        upstream_order_id: answer.upstreamOrderId,
        start_count: answer.startCount ?? undefined,
        remains: answer.remains ?? undefined,
        finished_at: sql`clock_timestamp()`,
        updated_at: sql`clock_timestamp()`,
      })
      .where('id', '=', d.id)
      .where('status', 'in', from)
      .returning('id')
      .executeTakeFirst()
    if (!updated) return false
    const lineRefund = await settleLine(trx, d.order_line_id)
    if (lineRefund && lineRefund.amount > 0) {
      const reason = answer.status === 'failed' ? `provider: ${answer.message}`.slice(0, 200) : 'not delivered in full'
      await creditBalance(trx, {
        accountId: order.account_id,
        type: 'refund',
        amount: lineRefund.amount,
        description: `Refund ${order.invoice}: ${reason}`,
        invoice: order.invoice,
        orderId: order.id,
        orderLineId: lineRefund.lineId,
      })
    }
    await settleOrder(trx, order)
    return true
  })
}
