import { inTransaction, type Database, type Trx } from '../../db/database.js'
import type { Order } from '../../db/schema.js'
import { AppError } from '../../errors.js'
import type { Vault } from '../../vault.js'
import { lineOfOrder, markLineResent, markManualLineSent, setCancelReason } from './operator-changes.queries.js'
import { lockOrder, recordEvent, settleOrder } from './order-state.queries.js'

/** The first step of an operator cancel (docs/design.md §5): the order locked, refused unless paid, with its reason. */
export async function startCancel(trx: Trx, orderId: number, reason: string): Promise<Order> {
  const order = await lockOrder(trx, orderId)
  if (order.status !== 'paid') throw new AppError('INVALID_STATE', { detail: `order is ${order.status}` })
  await setCancelReason(trx, order.id, reason)
  return order
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
    const line = await lineOfOrder(trx, order.id, lineId)
    if (!line) throw new AppError('LINE_NOT_FOUND')
    if (line.order_process !== 'manual' || line.status !== 'pending' || order.status !== 'paid') {
      throw new AppError('INVALID_STATE', { detail: `line is ${line.order_process}/${line.status}` })
    }
    await markManualLineSent(trx, line.id, {
      deliveryEnc: delivery.product_license ? vault.encrypt(delivery.product_license) : null,
      note: delivery.note ?? null,
    })
    await recordEvent(trx, order, 'order.item.sent', line.id)
    return { id: order.id, line_id: line.id, status: await settleOrder(trx, order) }
  })
}

/**
 * A complaint's resend of a final line (docs/design.md §14), the order row held by the caller: the typed
 * replacement sealed like a manual send (none: the line's new licenses, which catalog's resendLineLicenses
 * claimed), and the line delivered again as order.item.sent.
 */
export async function resendLine(
  trx: Trx,
  vault: Vault,
  order: Order,
  lineId: number,
  typed: { product_license: string; note?: string } | null,
): Promise<void> {
  await markLineResent(trx, lineId, {
    deliveryEnc: typed ? vault.encrypt(typed.product_license) : null,
    note: typed?.note ?? null,
  })
  await recordEvent(trx, order, 'order.item.sent', lineId)
}
