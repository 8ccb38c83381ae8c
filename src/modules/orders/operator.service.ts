import { sql } from 'kysely'
import { inTransaction, type Database, type Trx } from '../../db/database.js'
import type { Order, OrderLine } from '../../db/schema.js'
import { AppError } from '../../errors.js'
import type { Vault } from '../../vault.js'
import { creditBalance } from '../ledger/ledger.service.js'
import { lockOrder, recordEvent, settleOrder } from './order-state.js'

/**
 * Refunds one line exactly once: the conditional update wins for one caller only, and the ledger's
 * unique (line, refund) index backs it up. Limited stock taken by the line goes back.
 */
export async function refundLine(trx: Trx, order: Order, line: OrderLine, reason: string): Promise<boolean> {
  const refunded = await trx
    .updateTable('order_lines')
    .set({ status: 'refunded', refunded_amount: sql`subtotal` })
    .where('id', '=', line.id)
    .where('refunded_amount', '=', 0)
    .where('status', 'in', ['pending', 'cancel_requested'])
    .returning(['id', 'subtotal', 'stock_taken', 'item_id'])
    .executeTakeFirst()
  if (!refunded) return false
  if (refunded.stock_taken > 0) {
    await trx
      .updateTable('items')
      .set({ stock: sql`stock + ${refunded.stock_taken}`, updated_at: sql`clock_timestamp()` })
      .where('id', '=', refunded.item_id)
      .execute()
  }
  if (refunded.subtotal > 0) {
    await creditBalance(trx, { accountId: order.account_id, type: 'refund', amount: refunded.subtotal, description: `Refund ${order.invoice}: ${reason}`, invoice: order.invoice, orderId: order.id, orderLineId: line.id })
  }
  return true
}

/** Operator cancel (DESIGN §5): refunds every line not delivered yet; delivered lines stay. */
export async function cancelOrder(db: Database, orderId: number, reason: string) {
  return inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, orderId)
    if (order.status !== 'paid') throw new AppError('INVALID_STATE', { detail: `order is ${order.status}` })
    await trx.updateTable('orders').set({ cancel_reason: reason }).where('id', '=', order.id).execute()
    const lines = await trx.selectFrom('order_lines').selectAll().where('order_id', '=', order.id).where('status', '=', 'pending').orderBy('item_id').execute()
    let refunded = 0
    for (const line of lines) if (await refundLine(trx, order, line, reason)) refunded++
    return { id: order.id, status: await settleOrder(trx, order), refunded_lines: refunded }
  })
}

/** Operator delivery of a manual line: it turns `sent` and order.item.sent goes out. */
export async function sendManualLine(db: Database, vault: Vault, orderId: number, lineId: number, delivery: { product_license?: string; note?: string }) {
  return inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, orderId)
    const line = await trx.selectFrom('order_lines').selectAll().where('id', '=', lineId).where('order_id', '=', order.id).executeTakeFirst()
    if (!line) throw new AppError('LINE_NOT_FOUND')
    if (line.order_process !== 'manual' || line.status !== 'pending' || order.status !== 'paid') {
      throw new AppError('INVALID_STATE', { detail: `line is ${line.order_process}/${line.status}` })
    }
    await trx
      .updateTable('order_lines')
      .set({
        status: 'sent',
        delivery_enc: delivery.product_license ? vault.encrypt(delivery.product_license) : null,
        delivery_note: delivery.note ?? null,
        delivered_at: sql`clock_timestamp()`,
      })
      .where('id', '=', line.id)
      .execute()
    await recordEvent(trx, order, 'order.item.sent', line.id)
    return { id: order.id, line_id: line.id, status: await settleOrder(trx, order) }
  })
}
