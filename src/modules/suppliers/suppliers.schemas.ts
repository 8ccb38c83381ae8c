import { Type } from '@sinclair/typebox'
import { Nullable, PageNumber, StringEnum, Timestamp } from '../../http/schemas.js'

export const ProviderParam = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64, description: 'the provider’s code' }) })

export const SyncQuery = Type.Object({
  force: Type.Optional(Type.Boolean({ default: false, description: 'read the list even when the last sync is recent' })),
})

export const SupplierSync = Type.Object({
  id: Type.Integer(),
  provider: Type.String(),
  status: StringEnum(['running', 'ok', 'failed']),
  started_at: Timestamp,
  finished_at: Nullable(Timestamp),
  listed: Type.Integer({ description: 'products in the list read' }),
  skipped: Type.Integer({ description: 'entries without a usable code, name or price, left out' }),
  changes: Type.Object({
    new: Type.Integer(),
    price: Type.Integer(),
    status: Type.Integer(),
    gone: Type.Integer(),
    back: Type.Integer(),
    held: Type.Integer({ description: 'prices not applied: out of the money bounds or a jump (see GET /providers/{code}/held)' }),
  }),
  error: Nullable(Type.String({ description: 'why a failed sync changed nothing' })),
})
export const SyncResult = Type.Intersect([
  SupplierSync,
  Type.Object({ cached: Type.Boolean({ description: 'true: the last sync’s result, upstream not asked (SUPPLIER_SYNC_MINUTES)' }) }),
])

const Paging = {
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
}
export const ProductQuery = Type.Object({
  status: Type.Optional(StringEnum(['active', 'inactive', 'gone'], { description: 'on, off (both still listed), or no longer listed' })),
  category: Type.Optional(Type.String({ minLength: 1, maxLength: 191, description: 'exact, any case' })),
  brand: Type.Optional(Type.String({ minLength: 1, maxLength: 191, description: 'exact, any case' })),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 191, description: 'in the name or the code' })),
  ...Paging,
})
export const ChangeQuery = Type.Object({
  kind: Type.Optional(StringEnum(['new', 'price', 'status', 'gone', 'back', 'held'])),
  ...Paging,
})

export const SupplierProduct = Type.Object({
  code: Type.String({ description: 'Digiflazz’s buyer_sku_code; a panel’s service id' }),
  name: Type.String(),
  category: Type.String(),
  brand: Type.String(),
  type: Type.String(),
  price: Type.Number({ description: 'Digiflazz: the price (postpaid: the admin fee); a panel: the rate per 1,000' }),
  min_quantity: Nullable(Type.Integer()),
  max_quantity: Nullable(Type.Integer()),
  active: Type.Boolean({ description: 'on at the supplier' }),
  unlimited_stock: Type.Boolean(),
  stock: Nullable(Type.Integer()),
  cut_off_start: Nullable(Type.String({ description: 'HH:MM: the supplier’s daily cut-off starts' })),
  cut_off_end: Nullable(Type.String()),
  postpaid: Type.Boolean(),
  first_seen_at: Timestamp,
  last_seen_at: Timestamp,
  gone_at: Nullable(Timestamp),
})

export const SupplierChange = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  kind: StringEnum(['new', 'price', 'status', 'gone', 'back', 'held']),
  old: Nullable(Type.String({ description: 'price: the old price; status: on/off; gone: the last price; held: the last applied price' })),
  new: Nullable(Type.String({ description: 'new, back, price: the price; status: on/off; held: the price listed, not applied' })),
  at: Timestamp,
  sync_id: Type.Integer(),
})
