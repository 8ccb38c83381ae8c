import { sql } from 'kysely'
import { inTransaction, type Database, type Trx } from '../../db/database.js'
import { raisingAppErrors } from '../../db/functions/app-errors.js'
import type { Order, OrderLine } from '../../db/schema.js'
import { AppError } from '../../errors.js'
import type { Vault } from '../../vault.js'
import { lockOrder, recordEvent, settleOrder } from './order-state.queries.js'

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
