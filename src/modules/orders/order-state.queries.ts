import { sql } from 'kysely'
import type { Trx } from '../../db/database.js'
import { raisingAppErrors } from '../../db/functions/app-errors.js'
import type { Order, OrderLine } from '../../db/schema.js'
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

/**
 * Takes one line back exactly once, its whole subtotal refunded (close_upstream_line, settlement.sql):
 * the conditional update wins for one caller only (the ledger's unique (line, refund) index backs it
 * up). Limited stock the line took goes back to the item. The refund itself is credited by
 * creditRefunds, after every item row: items before the account.
 */
export async function withdrawLine(trx: Trx, line: OrderLine): Promise<{ lineId: number; amount: number } | undefined> {
  const { rows } = await sql<{ amount: string | number | null }>`
    SELECT close_upstream_line(id, subtotal) AS amount FROM order_lines WHERE id = ${line.id}::bigint`.execute(trx)
  const amount = rows[0]?.amount
  return amount === null || amount === undefined ? undefined : { lineId: line.id, amount: Number(amount) }
}

/** The refunds of an order's lines credited to its account (credit_line_refund, settlement.sql), in the order given. */
export async function creditRefunds(trx: Trx, order: Order, refunds: { lineId: number; amount: number }[], reason: string): Promise<void> {
  for (const { lineId, amount } of refunds) {
    await raisingAppErrors(
      sql`SELECT credit_line_refund(${order.account_id}::bigint, ${order.id}::bigint, ${order.invoice}, ${lineId}::bigint,
                                    ${amount}::bigint, ${reason})`.execute(trx),
    )
  }
}
