import { sql } from 'kysely'
import { inTransaction, type Database, type Trx } from '../../db/database.js'
import type { Order, OrderLine } from '../../db/schema.js'
import { AppError } from '../../errors.js'
import type { Vault } from '../../vault.js'
import { lockOrder, recordEvent, settleOrder } from './order-state.queries.js'

/** The first step of an operator cancel (docs/design.md §5): the order locked, refused unless paid, with its reason. */
export async function startCancel(trx: Trx, orderId: number, reason: string): Promise<Order> {
  const order = await lockOrder(trx, orderId)
  if (order.status !== 'paid') throw new AppError('INVALID_STATE', { detail: `order is ${order.status}` })
  await trx.updateTable('orders').set({ cancel_reason: reason }).where('id', '=', order.id).execute()
  return order
}

/** The lines a cancel takes back, in their items' ascending order as a purchase locks them. */
export async function cancellableLines(trx: Trx, orderId: number): Promise<OrderLine[]> {
  return trx
    .selectFrom('order_lines')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('status', 'in', ['pending', 'processing'])
    .orderBy('item_id')
    .orderBy('id')
    .execute()
}

/** A line whose request is at its provider waits for the provider's final answer to settle it. */
export async function markCancelRequested(trx: Trx, lineId: number): Promise<void> {
  await trx.updateTable('order_lines').set({ status: 'cancel_requested' }).where('id', '=', lineId).execute()
}

/** Operator delivery of a manual line: it turns `sent` and order.item.sent goes out. */
export async function sendManualLine(
  db: Database,
  vault: Vault,
  orderId: number,
  lineId: number,
  delivery: { product_license?: string; note?: string },
) {
  return inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, orderId)
    const line = await trx
      .selectFrom('order_lines')
      .selectAll()
      .where('id', '=', lineId)
      .where('order_id', '=', order.id)
      .executeTakeFirst()
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
