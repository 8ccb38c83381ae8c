import type { ColumnType, Generated } from 'kysely'
import type { Id, Timestamp } from './columns.js'

/** numeric: read back as a number (database.ts's parser), written as a decimal string. */
type Decimal = ColumnType<number, string, string>
type BigCount = ColumnType<number | null, number | null, number | null>

/** One sync of a provider's price list (docs/design.md §11b); a `running` row is the claim on that provider. */
export interface SupplierSyncsTable {
  id: Id
  provider: string
  status: 'running' | 'ok' | 'failed'
  started_at: Generated<Date>
  finished_at: Timestamp | null
  total: Generated<number>
  /** Entries of the list without a usable code or price, left out. */
  skipped: Generated<number>
  new_count: Generated<number>
  price_count: Generated<number>
  status_count: Generated<number>
  gone_count: Generated<number>
  back_count: Generated<number>
  held_count: Generated<number>
  error: string | null
}

/** A provider's product as its list last showed it (written by the suppliers module only). */
export interface SupplierProductsTable {
  provider: string
  /** Digiflazz's buyer_sku_code; an SMM panel's service id. */
  code: string
  name: string
  category: string
  brand: string
  type: string
  /** Digiflazz: the price (postpaid: the admin fee); SMM: the rate per 1,000. */
  price: Decimal
  min_quantity: BigCount
  max_quantity: BigCount
  /** On at the supplier (Digiflazz: buyer and seller status both true). */
  active: boolean
  unlimited_stock: boolean
  stock: BigCount
  /** HH:MM, the supplier's daily cut-off window; null when it has none. */
  cut_off_start: string | null
  cut_off_end: string | null
  postpaid: boolean
  raw: ColumnType<Record<string, unknown>, string, string>
  first_seen_at: Timestamp
  last_seen_at: Timestamp
  /** Set when a list no longer had it; cleared when it comes back. */
  gone_at: Timestamp | null
}

export type SupplierChangeKind = 'new' | 'price' | 'status' | 'gone' | 'back' | 'held'

/** What one sync found changed in one product. */
export interface SupplierChangesTable {
  id: Id
  provider: string
  code: string
  kind: SupplierChangeKind
  old_value: string | null
  new_value: string | null
  at: Timestamp
  sync_id: number
  /** held: why the listed price was not applied (out of the money bounds, or a jump). */
  held_reason: 'invalid' | 'jump' | null
  /** held: still governs its code (pending, or rejected while the list shows that price). */
  hold_open: Generated<boolean>
  decision: 'approved' | 'rejected' | null
  decided_at: Timestamp | null
}

/** The store's floor margin for items no pricing rule covers (MIN_MARGIN, written at start). One row. */
export interface MarginSettingsTable {
  only_row: Generated<boolean>
  min_margin: number
  updated_at: Generated<Date>
}

export type PricingScope = 'provider' | 'category' | 'brand' | 'item'

/** price = round_up(cost × (1 + percent/100) + flat, round_to), never below cost + min_margin; the most specific matching rule wins. */
export interface PricingRulesTable {
  id: Id
  scope: PricingScope
  provider: string | null
  /** The supplier's category (category scope; may narrow a brand rule). */
  category: string | null
  brand: string | null
  item_id: number | null
  percent: Decimal
  flat: number
  round_to: 1 | 50 | 100 | 500 | 1000
  min_margin: number
  created_at: Generated<Date>
  updated_at: Timestamp
}
