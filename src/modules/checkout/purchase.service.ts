import type { AppContext } from '../../context.js'
import { retrying, type Database } from '../../db/database.js'
import { noteText, type CreatedOrderData, type PurchaseBody } from '../orders/index.js'
import { newInvoice, refIdTaken, refuseBlankRefId } from '../refids/index.js'
import { callPurchase } from './purchase.js'

/**
 * POST /v1/trx: one call of the purchase() database function, which claims the ref_id, checks,
 * reserves, debits, fulfils auto lines and writes the outbox events in one transaction. A bill's
 * payment (POST /v1/trx/tagihan) is the same purchase with the inquiry that prices its line.
 */
export async function createPurchase(
  db: Database,
  deps: Pick<AppContext, 'prepared' | 'fulfillable'>,
  accountId: number,
  body: PurchaseBody,
  inquiryId: number | null = null,
): Promise<CreatedOrderData> {
  refuseBlankRefId(body.ref_id)
  const carts = body.carts.map((c, i) => ({
    item_id: c.item_id,
    quantity: c.quantity,
    note: noteText(c.note, `carts.${i}.note`),
    max_price: c.max_price,
  }))
  const attempt = async () => {
    const invoice = newInvoice('INV')
    const result = await callPurchase(deps.prepared, {
      accountId,
      refId: body.ref_id,
      invoice,
      carts,
      lockToken: body.lock_token || null,
      processes: deps.fulfillable,
      inquiryId,
    })
    return { result, invoice }
  }
  // An invoice collision is worth another go, with a new invoice.
  const invoiceTaken = (e: { code?: string; constraint?: string }) => e.code === '23505' && e.constraint === 'orders_invoice_key'
  const { result, invoice } = await retrying(attempt, invoiceTaken)
  // The ref_id may be a top-up's: the namespace is shared (docs/design.md §7).
  if (result.refused === 'REF_ID_ALREADY_EXIST') throw await refIdTaken(db, accountId, body.ref_id)
  // A balance purchase has no fees: its price is its amount (docs/design.md §5).
  return {
    id: result.order_id,
    invoice,
    ref_id: body.ref_id,
    status: 'paid',
    price: result.amount,
    fees: 0,
    amount: result.amount,
    contact: result.contact,
    created_at: result.created_at,
  }
}
