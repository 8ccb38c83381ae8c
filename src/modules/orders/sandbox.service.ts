import type { Database } from '../../db/database.js'
import { AppError, refIdAlreadyExists } from '../../errors.js'
import { findStockForSale, refuseUnsellable } from '../catalog/index.js'
import { checkCartLine, noteText, type NoteInput } from './cart-line.js'
import { newInvoice, refuseBlankRefId } from '../refids/index.js'
import { findSandbox, insertSandboxOrder } from './sandbox.queries.js'

type SandboxInput = { ref_id: string; item_id: number; quantity: number; note?: NoteInput; max_price?: number | null }

const refused = (s: { id: number; ref_id: string; invoice: string; amount: number; created_at: Date }) =>
  refIdAlreadyExists({ id: s.id, invoice: s.invoice, ref_id: s.ref_id, amount: s.amount, status: 'sandbox', created_at: s.created_at })

/** max_price as purchase() checks it (checkout/purchase.sql), with the item checks: the unit price above it is PRICE_ABOVE_MAX. */
function refusePriceAboveMax(itemId: number, price: number, maxPrice: number | null | undefined) {
  if (maxPrice == null || price <= maxPrice) return
  throw new AppError('PRICE_ABOVE_MAX', {
    fieldErrors: { max_price: [`the price is now ${price}; send max_price ≥ ${price} or leave it out`] },
    data: { item_id: itemId, price },
  })
}

/**
 * POST /v1/order/sandbox: every check of a purchase but the balance (ref_id, item, minimum, maximum,
 * the line's note rules and cost, max_price, stock); stores the order as `sandbox`, takes nothing, reserves
 * nothing, sends nothing.
 */
export async function createSandboxOrder(db: Database, fulfillable: readonly string[], accountId: number, input: SandboxInput) {
  refuseBlankRefId(input.ref_id)
  const existing = await findSandbox(db, accountId, input.ref_id)
  if (existing && existing.ref_id === input.ref_id) throw refused(existing)
  const item = await refuseUnsellable(db, input.item_id, input.quantity, fulfillable, accountId)
  const line = await checkCartLine(db, item, input.quantity, noteText(input.note, 'note'))
  refusePriceAboveMax(item.id, Math.ceil(line.cost / input.quantity), input.max_price)
  const available = await findStockForSale(db, item.id)
  // NULL is unlimited stock.
  if (available !== null && available < input.quantity)
    throw new AppError('OUT_OF_STOCK', {
      fieldErrors: { quantity: [`only ${available} available`] },
      data: { item_id: item.id, available },
    })
  const amount = line.cost
  const row = await insertSandboxOrder(db, {
    account_id: accountId,
    ref_id: input.ref_id,
    invoice: newInvoice('SBX'),
    item_id: item.id,
    quantity: input.quantity,
    price: amount,
    amount,
  })
  if (!row) throw refused((await findSandbox(db, accountId, input.ref_id))!)
  return { ...row, status: 'sandbox' as const }
}
