import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import type { BillDetail } from '../../db/schema.js'

// How long an inquiry may be paid (docs/design.md §5c); the provider's own quote lasts the day.
export const INQUIRY_MINUTES = 15

export type NewInquiry = {
  accountId: number
  itemId: number
  customerNo: string
  upstreamRef: string
  customerName: string
  details: BillDetail[]
  providerPrice: number
  /** The floor refused it (docs/design.md §11c): kept for Margin watch, never payable. */
  floorRefused: boolean
}

/** The provider's kind (its protocol), if there is one of that code. */
export function providerKindOf(db: Database, code: string) {
  return db.selectFrom('providers').select('kind').where('code', '=', code).executeTakeFirst()
}

/** What the floor keeps on a bill of this item: its margin (the item's, else the store's) and whether it may sell at a loss. */
export async function billFloorOf(db: Database, itemId: number) {
  return db
    .selectFrom('items')
    .select(['allow_loss', sql<string>`floor_margin(min_margin)`.as('margin')])
    .where('id', '=', itemId)
    .executeTakeFirstOrThrow()
}

/** Stores an answered inquiry; the totals are the details' sums (the table's CHECK holds amount to them). */
export async function insertInquiry(db: Database, q: NewInquiry) {
  const sum = (pick: (d: BillDetail) => number) => q.details.reduce((total, d) => total + pick(d), 0)
  const billAmount = sum((d) => d.bill_amount)
  const penalty = sum((d) => d.penalty)
  const adminFee = sum((d) => d.admin)
  return db
    .insertInto('bill_inquiries')
    .values({
      account_id: q.accountId,
      item_id: q.itemId,
      customer_no: q.customerNo,
      upstream_ref: q.upstreamRef,
      customer_name: q.customerName,
      period: q.details.map((d) => d.period).join(', '),
      bill_count: q.details.length,
      bill_amount: billAmount,
      penalty,
      admin_fee: adminFee,
      amount: billAmount + penalty + adminFee,
      details: JSON.stringify(q.details),
      provider_price: q.providerPrice,
      floor_refused: q.floorRefused,
      expires_at: sql<Date>`now() + make_interval(mins => ${INQUIRY_MINUTES}::integer)`,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** An inquiry of this account (another account's is not found). */
export async function findInquiry(db: Database, accountId: number, inquiryId: number) {
  return db
    .selectFrom('bill_inquiries')
    .selectAll()
    .select(sql<boolean>`expires_at <= now()`.as('expired'))
    .where('id', '=', inquiryId)
    .where('account_id', '=', accountId)
    .executeTakeFirst()
}
