import type { PreparedStatement } from '../../db/database.js'
import { AppError, type FieldErrors } from '../../errors.js'
import { askBill, findInquiry, type BillPaymentBody, type InquiryDeps } from '../bills/index.js'
import { isRefIdHeld, refIdTaken, refuseBlankRefId } from '../refids/index.js'
import { createPurchase } from './purchase.service.js'

export type PaymentDeps = InquiryDeps & { prepared: PreparedStatement }

// purchase() names the fields of a cart line; this body names them itself.
const FIELD_OF: Record<string, string> = {
  'carts.0.note': 'customer_id',
  'carts.0.item_id': 'item_id',
  'carts.0.quantity': 'item_id',
  carts: 'item_id',
}

function inBodyFields(error: unknown): unknown {
  if (!(error instanceof AppError) || !error.fieldErrors) return error
  const renamed: FieldErrors = {}
  for (const [field, sentences] of Object.entries(error.fieldErrors)) renamed[FIELD_OF[field] ?? field] = sentences
  return new AppError(error.code, { fieldErrors: renamed, data: error.data, headers: error.headers })
}

/**
 * The most the bill may come to: max_amount, or max_price (docs/design.md §11c: Digiflazz buyers' name for
 * it), the lower when both are sent; `field` is the one that set it, named in the refusal.
 */
function billLimit(body: BillPaymentBody): { field: 'max_amount' | 'max_price'; max: number } | undefined {
  const { max_amount: amount, max_price: price } = body
  if (price != null && (amount == null || price < amount)) return { field: 'max_price', max: price }
  return amount != null ? { field: 'max_amount', max: amount } : undefined
}

/**
 * POST /v1/trx/tagihan (docs/design.md §5c): pays a bill as one purchase of its postpaid item, priced by
 * the given inquiry or a fresh one. purchase() runs the ref_id rules, locks the inquiry, checks it
 * (this account's, unpaid, unexpired, this item and customer), debits the balance with its ledger
 * entry, writes order.paid and the dispatch that sends pay-pasca under the inquiry's ref.
 */
export async function payBill(deps: PaymentDeps, accountId: number, body: BillPaymentBody) {
  refuseBlankRefId(body.ref_id)
  // A used ref_id answers as POST /v1/trx does, before a fresh inquiry bothers the provider.
  if (await isRefIdHeld(deps.db, accountId, body.ref_id)) throw await refIdTaken(deps.db, accountId, body.ref_id)
  const customerNo = body.customer_id.trim()
  let inquiry: { id: number; amount: number; expires_at: Date; payable: boolean }
  if (body.inquiry_id != null) {
    const row = await findInquiry(deps.db, accountId, body.inquiry_id)
    if (!row)
      throw new AppError('INQUIRY_NOT_FOUND', {
        fieldErrors: { inquiry_id: ['no inquiry of yours has this id: ask one with POST /api/v1/trx/tagihan/inquiry'] },
      })
    // A paid or expired one is refused by purchase(), in its words; its amount is then beside the point.
    inquiry = { id: row.id, amount: row.amount, expires_at: row.expires_at, payable: row.order_line_id === null && !row.expired }
  } else {
    const fresh = await askBill(deps, accountId, { item_id: body.item_id, customer_id: body.customer_id })
    inquiry = { id: fresh.inquiry_id, amount: fresh.amount, expires_at: new Date(fresh.expires_at), payable: true }
  }
  const limit = billLimit(body)
  if (inquiry.payable && limit && inquiry.amount > limit.max)
    throw new AppError('BILL_AMOUNT_CHANGED', {
      fieldErrors: {
        [limit.field]: [`the bill now comes to ${inquiry.amount}, more than ${limit.max}: pay inquiry ${inquiry.id} if that suits`],
      },
      data: { inquiry_id: inquiry.id, amount: inquiry.amount, max_amount: limit.max, expires_at: inquiry.expires_at },
    })
  try {
    return await createPurchase(
      deps.db,
      { prepared: deps.prepared, fulfillable: [...deps.fulfillable] },
      accountId,
      { ref_id: body.ref_id, carts: [{ item_id: body.item_id, quantity: 1, note: customerNo }] },
      inquiry.id,
    )
  } catch (error) {
    throw inBodyFields(error)
  }
}
