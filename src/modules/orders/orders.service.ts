import type { AppContext } from '../../context.js'
import { retrying, type Database } from '../../db/database.js'
import { AppError } from '../../errors.js'
import { findOrderSummary } from './orders.queries.js'
import type { OrderSummary, PurchaseBody } from './orders.schemas.js'
import { newInvoice } from './invoice.js'
import { callPurchase } from './purchase.js'
import { refuseBlankRefId } from './ref-id.js'
import { findTopupSummary } from '../topups/topups.queries.js'

/**
 * POST /v1/trx: one call of the purchase() database function, which claims the ref_id, checks,
 * reserves, debits, fulfils auto lines and writes the outbox events in one transaction.
 */
export async function createPurchase(
  db: Database,
  deps: Pick<AppContext, 'prepared' | 'fulfillable'>,
  accountId: number,
  body: PurchaseBody,
): Promise<OrderSummary> {
  refuseBlankRefId(body.ref_id)
  const attempt = async () => {
    const invoice = newInvoice('INV')
    const result = await callPurchase(deps.prepared, {
      accountId,
      refId: body.ref_id,
      invoice,
      carts: body.carts,
      lockToken: body.lock_token || null,
      processes: deps.fulfillable,
    })
    return { result, invoice }
  }
  // An invoice collision is worth another go, with a new invoice.
  const invoiceTaken = (e: { code?: string; constraint?: string }) => e.code === '23505' && e.constraint === 'orders_invoice_key'
  const { result, invoice } = await retrying(attempt, invoiceTaken)
  if (result.refused === 'REF_ID_ALREADY_EXIST') {
    // The ref_id may be a top-up's: the namespace is shared (DESIGN §7).
    const existing = (await findOrderSummary(db, accountId, body.ref_id)) ?? (await findTopupSummary(db, accountId, body.ref_id))
    throw new AppError('REF_ID_ALREADY_EXIST', { data: existing })
  }
  return { id: result.order_id, invoice, ref_id: body.ref_id, amount: result.amount, status: 'paid', created_at: result.created_at }
}

// Other modules read orders' full state through this service (the webhook worker's payloads).
export { loadOrderDetails, type OrderLineView } from './order-detail.js'
