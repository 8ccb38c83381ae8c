import type { ColumnType, Generated } from 'kysely'
import type { Id, Timestamp } from './columns.js'

// The tables of the catalog, licenses and stock locks.
export interface CategoriesTable {
  id: Id
  name: string
  /** From the name (catalog/category-slug.ts), unique; null only if an older process inserted it (migration 0230). */
  slug: string | null
  icon: string | null
  created_at: Generated<Date>
}

export interface ProductsTable {
  id: Id
  category_id: number
  name: string
  image: string | null
  created_at: Generated<Date>
}

export type ProviderKind = 'digiflazz' | 'smm_panel'

export interface ProvidersTable {
  code: string
  kind: ProviderKind
  base_url: string
  username: string | null
  api_key_enc: string | null
  active: Generated<boolean>
  /** Low-balance alert thresholds (docs/design.md §11e): under this many Rupiah, or under this many hours at the day's rate. */
  balance_alert_below: Generated<number | null>
  balance_alert_hours: Generated<string | null>
  created_at: Generated<Date>
  updated_at: Timestamp
}

/** What the operator has left at a provider, as last read over its protocol (docs/design.md §11e). */
export interface ProviderBalancesTable {
  provider: string
  /** numeric: text as node-postgres reads it. */
  balance: string | null
  currency: string | null
  read_at: Date | null
  tried_at: Date
  error: string | null
}

export type OrderProcess = 'auto' | 'h2h' | 'smm' | 'manual'
export type ProviderMeta = {
  open_denom?: boolean
  min_qty?: number
  max_qty?: number
  step_qty?: number
  /** How many provider units `price` buys (DANA at Rp 1,010 per 1,000: 1000); an open denomination costs ceil(price × provider_qty / price_unit). */
  price_unit?: number
  /** What a provider unit is called, for a reseller's form ("Saldo DANA (Rp)"). */
  qty_label?: string
  validation?: boolean
  requires_zone_id?: boolean
  /** A postpaid bill (docs/design.md §5c): price is the admin fee per bill, paid through POST /v1/trx/tagihan. */
  postpaid?: boolean
}
export type RequiredField = { key: string; label: string; required: boolean }

export interface ItemsTable {
  id: Id
  product_id: number
  sku: string
  name: string
  price: number
  order_process: OrderProcess
  min_order: Generated<number>
  max_order: number | null
  unlimited_stock: Generated<boolean>
  stock: Generated<number>
  active: Generated<boolean>
  provider: string | null
  provider_code: string | null
  provider_meta: ColumnType<ProviderMeta, string | undefined, string>
  required_fields: ColumnType<RequiredField[] | null, string | null | undefined, string | null>
  description: Generated<string>
  /** What one unit of `price` costs us at the item's first serving source (numeric: a panel's rate per 1,000 / 1,000 may be fractional); null when unknown. */
  cost: ColumnType<number | null, string | number | null | undefined, string | number | null>
  /** Set by the operator: a cost change never reprices this item. */
  price_locked: Generated<boolean>
  /** Set by the operator (a promotion): the item may sell below cost + min_margin (docs/design.md §11c). */
  allow_loss: Generated<boolean>
  /** The margin the pricing rule that covers it keeps above cost, per unit of price; null: margin_settings' (MIN_MARGIN). */
  min_margin: ColumnType<number | null, number | null | undefined, number | null>
  created_at: Generated<Date>
  updated_at: Timestamp
}

export interface LicensesTable {
  id: Id
  item_id: number
  content_enc: string
  fingerprint: string
  /** `void`: delivered once, then replaced by a complaint's resend (never back in stock). */
  status: Generated<'available' | 'sold' | 'void'>
  order_line_id: number | null
  created_at: Generated<Date>
  sold_at: Date | null
}

/** Every voucher ever stocked, by fingerprint: what keeps one voucher from being stocked twice store-wide. */
export interface LicenseFingerprintsTable {
  fingerprint: string
}

export type LockStatus = 'active' | 'used' | 'expired' | 'released'

export interface StockLocksTable {
  id: Id
  token: string
  account_id: number
  item_id: number
  quantity: number
  status: Generated<LockStatus>
  locked_at: Generated<Date>
  expires_at: Timestamp
  finished_at: Date | null
  order_id: number | null
}

/** A supplier product an item is bought from (catalog/sources.sql says which serve); the lowest priority that can serve is tried first (docs/design.md §11b). */
export interface ItemSourcesTable {
  item_id: number
  provider: string
  /** The supplier's product code (supplier_products.code). */
  code: string
  priority: number
  created_at: Generated<Date>
}
