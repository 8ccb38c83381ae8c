import { sql } from 'kysely'
import type { Trx } from '../../db/database.js'
import type { OrderLine } from '../../db/schema.js'

/** Notes why an operator cancels the order (shown on it and in its `order.canceled`). */
export async function setCancelReason(trx: Trx, orderId: number, reason: string): Promise<void> {
  await trx.updateTable('orders').set({ cancel_reason: reason }).where('id', '=', orderId).execute()
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

/** The order's line, if it is one of the order's. */
export function lineOfOrder(trx: Trx, orderId: number, lineId: number): Promise<OrderLine | undefined> {
  return trx.selectFrom('order_lines').selectAll().where('id', '=', lineId).where('order_id', '=', orderId).executeTakeFirst()
}

/** A manual line delivered by the operator: `sent`, with the sealed license and the note, at the statement's clock. */
export async function markManualLineSent(trx: Trx, lineId: number, delivery: { deliveryEnc: string | null; note: string | null }) {
  await trx
    .updateTable('order_lines')
    .set({
      status: 'sent',
      delivery_enc: delivery.deliveryEnc,
      delivery_note: delivery.note,
      delivered_at: sql`clock_timestamp()`,
    })
    .where('id', '=', lineId)
    .execute()
}

/** A final line delivered again by a complaint's resend: the typed replacement sealed (null: new licenses), now. */
export async function markLineResent(trx: Trx, lineId: number, delivery: { deliveryEnc: string | null; note: string | null }) {
  await trx
    .updateTable('order_lines')
    .set({ delivery_enc: delivery.deliveryEnc, delivery_note: delivery.note, delivered_at: sql`clock_timestamp()` })
    .where('id', '=', lineId)
    .where('status', 'in', ['delivered', 'sent'])
    .execute()
}
