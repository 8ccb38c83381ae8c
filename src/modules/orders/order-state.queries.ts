import { sql } from 'kysely'
import type { Trx } from '../../db/database.js'
import type { Order } from '../../db/schema.js'
import { AppError } from '../../errors.js'

// Every event an order emits, written here and in checkout/purchase.sql (a test holds the two together).
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

/**
 * Closes a paid order (its row locked) once no line is open: `canceled` when every line was
 * refunded, `completed` when something was delivered (the rest refunded); settle_order in
 * settlement.sql, which upstream answers' batches share.
 */
export async function settleOrder(trx: Trx, order: Order): Promise<Order['status']> {
  const { rows } = await sql<{ status: Order['status'] }>`SELECT settle_order(${order.id}::bigint) AS status`.execute(trx)
  return rows[0].status
}
