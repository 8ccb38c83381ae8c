import type { PreparedStatement } from '../../db/database.js'
import { raisingAppErrors } from '../../db/functions/app-errors.js'

// The account's email rides along (the create response's `contact`): one index probe, no second round trip.
const PURCHASE = `SELECT p.*, (SELECT a.email FROM accounts a WHERE a.id = $1) AS contact
  FROM purchase($1, $2, $3, $4::bigint[], $5::integer[], $6::text[], $7, $8::text[], $9::bigint, $10::bigint[]) p`

export type PurchaseCall = {
  accountId: number
  refId: string
  invoice: string
  carts: { item_id: number; quantity: number; note?: string | null; max_price?: number | null }[]
  lockToken: string | null
  /** The order processes a fulfilment can take now. */
  processes: readonly string[]
  /** The bill inquiry a postpaid line pays (POST /v1/trx/tagihan); without one a postpaid item is refused. */
  inquiryId?: number | null
}
/** `refused` is REF_ID_ALREADY_EXIST when the ref_id was taken (the only refusal that does not raise). */
export type PurchaseOutcome = {
  order_id: number
  created_at: Date
  amount: number
  refused: 'REF_ID_ALREADY_EXIST' | null
  /** The account's email. */
  contact: string | null
}

/** The one caller of purchase() (purchase.sql): a named prepared statement, its refusals as AppErrors. */
export async function callPurchase(prepared: PreparedStatement, p: PurchaseCall): Promise<PurchaseOutcome> {
  const items = p.carts.map((c) => c.item_id)
  const quantities = p.carts.map((c) => c.quantity)
  const notes = p.carts.map((c) => c.note ?? null)
  // NULL when no line sets one: the common case passes no array at all.
  const maxPrices = p.carts.some((c) => c.max_price != null) ? p.carts.map((c) => c.max_price ?? null) : null
  const [outcome] = await raisingAppErrors(
    prepared<PurchaseOutcome>('purchase', PURCHASE, [
      p.accountId,
      p.refId,
      p.invoice,
      items,
      quantities,
      notes,
      p.lockToken,
      p.processes,
      p.inquiryId ?? null,
      maxPrices,
    ]),
  )
  return outcome
}
