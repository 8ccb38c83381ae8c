import type { ColumnType, Generated } from 'kysely'
import type { Id } from './columns.js'

/** One period of a bill as a reseller sees it: the bill, our admin fee for it, its late fee. */
export type BillDetail = { period: string; bill_amount: number; admin: number; penalty: number }

/** A postpaid bill asked for (inq-pasca, docs/design.md §5c): what paying it costs, until expires_at, once. */
export interface BillInquiriesTable {
  id: Id
  account_id: number
  item_id: number
  customer_no: string
  /** The ref_id the provider knows the inquiry by; the payment (pay-pasca) must reuse it. */
  upstream_ref: string
  customer_name: string
  /** The periods billed, comma-separated (YYYYMM at Digiflazz). */
  period: string
  bill_count: number
  bill_amount: number
  penalty: number
  /** The item's price per bill, times bill_count. */
  admin_fee: number
  /** bill_amount + penalty + admin_fee: what the balance is charged. */
  amount: number
  details: ColumnType<BillDetail[], string, string>
  /** What the provider said it will charge us, for the operator; null when it did not say. */
  provider_price: number | null
  /**
   * The floor refused it (docs/design.md §11c): the supplier's price + the floor margin passed what the reseller would pay;
   * never payable.
   */
  floor_refused: Generated<boolean>
  expires_at: Date
  /** The order line that paid it (written by purchase()); null while unpaid. */
  order_line_id: number | null
  created_at: Generated<Date>
}
