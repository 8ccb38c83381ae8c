import { sql } from 'kysely'
import type { Trx } from '../../db/database.js'
import type { Order } from '../../db/schema.js'
import { AppError } from '../../errors.js'

// Every event an order emits, written here and in purchase.sql (a test holds the two together).
export const ORDER_EVENTS = ['order.paid', 'order.completed', 'order.canceled', 'order.item.sent'] as const
export type OrderEvent = (typeof ORDER_EVENTS)[number]

/**
 * Every status change leaves through the outbox, in the transaction that made it; the relay deletes
 * the row, and counts an `order.completed` on the leaderboard as it does (leaderboard.sql).
 */
export async function recordEvent(trx: Trx, order: Pick<Order, 'id' | 'account_id'>, event: OrderEvent, lineId?: number): Promise<void> {
  await trx
    .insertInto('outbox_events')
    .values({
      account_id: order.account_id,
      events: [event],
      order_id: order.id,
      order_line_id: lineId ?? null,
      leaderboard_counts: event === 'order.completed',
    })
    .execute()
}

/** The order row, locked: operator actions on one order run one at a time. */
export async function lockOrder(trx: Trx, orderId: number): Promise<Order> {
  const order = await trx.selectFrom('orders').selectAll().where('id', '=', orderId).forNoKeyUpdate().executeTakeFirst()
  if (!order) throw new AppError('TRX_NOT_FOUND')
  return order
}

const OPEN_LINES = ['pending', 'processing', 'cancel_requested']

/**
 * Closes a paid order once no line is open: `canceled` when every line was refunded,
 * `completed` when something was delivered (the rest refunded).
 */
export async function settleOrder(trx: Trx, order: Order): Promise<Order['status']> {
  const lines = await trx.selectFrom('order_lines').select('status').where('order_id', '=', order.id).execute()
  if (order.status !== 'paid' || lines.some((l) => OPEN_LINES.includes(l.status))) return order.status
  const status = lines.every((l) => l.status === 'refunded') ? 'canceled' : 'completed'
  await trx
    .updateTable('orders')
    .set({ status, finished_at: sql`clock_timestamp()`, updated_at: sql`clock_timestamp()` })
    .where('id', '=', order.id)
    .where('status', '=', 'paid')
    .execute()
  // The account's order list changed (its kept pages are read by this count: http/kept-pages.ts).
  await trx
    .updateTable('accounts')
    .set({ order_settles: sql`order_settles + 1` })
    .where('id', '=', order.account_id)
    .execute()
  await recordEvent(trx, order, status === 'canceled' ? 'order.canceled' : 'order.completed')
  return status
}
