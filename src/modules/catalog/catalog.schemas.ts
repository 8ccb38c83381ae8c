import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Ok, PageNumber, Timestamp } from '../../http/schemas.js'

/** What POST /api/v1/item/validate asks for, in the public docs' shape (as required_fields). */
export const ValidationFields = Type.Array(
  Type.Object({ key: Type.String({ description: 'customer_id or zone_id' }), label: Type.String(), required: Type.Boolean() }),
  { description: 'the fields POST /api/v1/item/validate takes for it; empty when validation is not available' },
)

export const Variant = Type.Object({
  id: Type.Integer({ description: 'the item_id of every other call' }),
  sku: Type.String(),
  name: Type.String(),
  price: Type.Integer(),
  stock: Nullable(Type.Integer({ description: 'available now (stock minus active locks); null when unlimited' })),
  unlimited_stock: Type.Boolean(),
  min_order: Type.Integer(),
  max_order: Nullable(Type.Integer()),
  order_process: Type.String({ enum: ['auto', 'h2h', 'smm', 'manual'] }),
  status: Type.String({ enum: ['on', 'off'] }),
  h2h_provider: Nullable(Type.String()),
  provider_meta: Type.Object({
    open_denom: Type.Boolean(),
    min_qty: Nullable(Type.Integer()),
    max_qty: Nullable(Type.Integer()),
    step_qty: Nullable(Type.Integer()),
    price_unit: Type.Optional(Type.Integer({ description: 'open denomination: provider units the price buys' })),
    qty_label: Type.Optional(Nullable(Type.String({ description: 'open denomination: what a provider unit is called' }))),
  }),
  postpaid: Type.Boolean({ description: 'a postpaid bill: price is the admin fee per bill; ask and pay it through /api/v1/trx/tagihan' }),
  required_fields: Type.Array(
    Type.Object({
      key: Type.String(),
      label: Type.String(),
      required: Type.Boolean(),
      min: Type.Optional(Type.Integer()),
      max: Type.Optional(Type.Integer()),
      step: Type.Optional(Type.Integer()),
    }),
  ),
  validation: Type.Object({
    available: Type.Boolean(),
    requires_zone_id: Type.Boolean(),
    fields: ValidationFields,
    endpoint: Nullable(Type.String({ description: 'where to validate (POST), when available' })),
  }),
  description: Type.String(),
  updated_at: Timestamp,
  category: Type.Optional(Type.String({ description: 'the category’s name (in the list and the detail)' })),
})
export type Variant = Static<typeof Variant>

export const CatalogQuery = Type.Object({
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 500 }), Type.Literal('all')], { default: 100 })),
  updated_since: Type.Optional(
    Type.Union([Type.String({ format: 'date-time' }), Type.String({ format: 'date', description: 'midnight UTC' })], {
      description: "the previous answer's server_time, for delta sync",
    }),
  ),
  category: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'category slug, id or name' })),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
})
export type CatalogQuery = Static<typeof CatalogQuery>

export const CatalogPage = Type.Object({
  message: Type.Literal('OK'),
  data: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      slug: Type.String({ description: 'what `category` filters by, as the public docs do' }),
      icon: Nullable(Type.String()),
      products: Type.Array(
        Type.Object({ id: Type.Integer(), name: Type.String(), image: Nullable(Type.String()), variants: Type.Array(Variant) }),
      ),
    }),
  ),
  meta: Type.Object({
    total_items: Type.Integer(),
    is_delta: Type.Boolean(),
    page: Type.Integer(),
    per_page: Type.Integer(),
    last_page: Type.Integer(),
  }),
  server_time: Type.String({ format: 'date-time', description: 'pass as updated_since on the next sync' }),
})

export const ItemDetail = Ok(
  Type.Composite([Variant, Type.Object({ product_id: Type.Integer(), product_name: Type.String(), category: Type.String() })]),
)
