import { Type } from '@sinclair/typebox'
import { Nullable, Ok, StringEnum, Timestamp } from '../../http/schemas.js'
import { Variant } from '../catalog/index.js'
import { MAX_MONEY } from '../ledger/index.js'

const Name = Type.String({ minLength: 1, maxLength: 191 })

export const Account = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Nullable(Type.String()),
  status: Type.String({ enum: ['active', 'suspended'] }),
  balance: Type.Integer(),
  max_active_locks: Nullable(Type.Integer()),
  ip_allowlist: Type.Array(Type.String()),
  price_level: Type.String({ description: 'its price level (code): what it pays (GET /price-levels)' }),
  created_at: Timestamp,
  updated_at: Timestamp,
})

export const CreateAccountBody = Type.Object({ name: Name, email: Type.Optional(Type.String({ format: 'email', maxLength: 191 })) })
export const CreatedAccount = Ok(Type.Composite([Account, Type.Object({ api_key: Type.String({ description: 'shown once' }) })]))
export const AccountChangesBody = Type.Object({
  name: Type.Optional(Name),
  email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 191 }))),
  status: Type.Optional(StringEnum(['active', 'suspended'])),
  max_active_locks: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 10000 }))),
  ip_allowlist: Type.Optional(Type.Array(Type.String({ minLength: 2, maxLength: 64 }), { maxItems: 100 })),
  price_level: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: "a price level's code: the account's next request is priced at it" }),
  ),
})
export const RotatedKey = Ok(
  Type.Object({ id: Type.Integer(), api_key: Type.String({ description: 'shown once; the previous key is revoked' }) }),
)

export const AdjustmentBody = Type.Object({
  amount: Type.Integer({ minimum: -MAX_MONEY, maximum: MAX_MONEY, description: 'Rupiah; negative debits; a balance never exceeds 10^15' }),
  reason: Type.String({ minLength: 1, maxLength: 255 }),
  reference: Type.Optional(
    Type.String({ minLength: 1, maxLength: 191, description: 'idempotency key: a repeated reference is not applied twice' }),
  ),
})
export const Adjustment = Ok(
  Type.Object({
    applied: Type.Boolean({ description: 'false when the reference had already been applied' }),
    entry: Type.Object({
      id: Type.Integer(),
      direction: Type.String(),
      type: Type.String(),
      amount: Type.Integer(),
      balance_before: Type.Integer(),
      balance_after: Type.Integer(),
      description: Type.String(),
      reference: Nullable(Type.String()),
      created_at: Timestamp,
    }),
  }),
)

const ProviderMetaBody = Type.Object({
  open_denom: Type.Optional(Type.Boolean()),
  min_qty: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  max_qty: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  step_qty: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  price_unit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'provider units the price buys (open denomination)' }),
  ),
  qty_label: Type.Optional(Type.String({ minLength: 1, maxLength: 60, description: 'what a provider unit is called' })),
  validation: Type.Optional(Type.Boolean()),
  requires_zone_id: Type.Optional(Type.Boolean()),
  postpaid: Type.Optional(Type.Boolean({ description: 'an h2h postpaid bill (docs/design.md §5c): price is the admin fee per bill' })),
})
const ItemFields = {
  sku: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  name: Name,
  // A unit price far under MAX_MONEY; a line's price × quantity is bounded where it is computed.
  price: Type.Integer({ minimum: 0, maximum: 1e12 }),
  min_order: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  max_order: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000 }))),
  unlimited_stock: Type.Optional(Type.Boolean()),
  stock: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e12 })),
  provider: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
  provider_code: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 191 }))),
  provider_meta: Type.Optional(ProviderMetaBody),
  required_fields: Type.Optional(Nullable(Type.Array(Type.Object({ key: Type.String(), label: Type.String(), required: Type.Boolean() })))),
  description: Type.Optional(Type.String({ maxLength: 5000 })),
  active: Type.Optional(Type.Boolean()),
}
export const CreateItemBody = Type.Object({
  product_name: Name,
  category: Type.Optional(Type.String({ maxLength: 191 })),
  order_process: StringEnum(['auto', 'h2h', 'smm', 'manual']),
  ...ItemFields,
})
export const ItemChangesBody = Type.Partial(
  Type.Object({
    ...ItemFields,
    price_locked: Type.Boolean({
      description:
        'true: supplier cost changes and pricing rules leave the price alone; a `price` sent for an item with a supplier cost locks it unless this says false',
    }),
    allow_loss: Type.Boolean({ description: 'true: the item may sell below its source’s cost + the floor margin (a promotion)' }),
  }),
)
export const AdminItem = Ok(
  Type.Composite([
    Variant,
    Type.Object({
      product_id: Type.Integer(),
      product_name: Type.String(),
      category: Type.String(),
      active: Type.Boolean(),
      provider_code: Nullable(Type.String()),
      cost: Nullable(Type.Number({ description: 'what one unit costs at its first serving supplier; null: not supplier-priced' })),
      price_locked: Type.Boolean({ description: 'the operator’s price: supplier cost changes and pricing rules leave it' }),
      allow_loss: Type.Boolean({ description: 'the item may sell below its source’s cost + the floor margin (a promotion)' }),
      min_margin: Nullable(
        Type.Integer({
          description: 'the floor margin over cost its pricing rule keeps, per unit of price; null: the store’s (MIN_MARGIN)',
        }),
      ),
    }),
  ]),
)

export const LicensesBody = Type.Object({ licenses: Type.Array(Type.String({ maxLength: 4000 }), { minItems: 1, maxItems: 10000 }) })
export const LicensesAdded = Ok(Type.Object({ item_id: Type.Integer(), added: Type.Integer(), duplicates: Type.Integer() }))

const ProviderKind = StringEnum(['digiflazz', 'smm_panel'])
export const ProviderBody = Type.Object({
  code: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' }),
  kind: ProviderKind,
  // A host after the scheme: `https://` alone would be stored as `https:`.
  base_url: Type.String({ pattern: '^https?://[^/?#\\s]+', maxLength: 500 }),
  username: Type.Optional(Nullable(Type.String({ maxLength: 191 }))),
  api_key: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  active: Type.Optional(Type.Boolean()),
  // Low-balance alert thresholds (docs/design.md §11e); null switches one off.
  balance_alert_below: Type.Optional(
    Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000_000_000_000, description: 'alert when the balance (IDR) is under this' })),
  ),
  balance_alert_hours: Type.Optional(
    Nullable(
      Type.Number({
        minimum: 0.01,
        maximum: 999_999,
        description: 'alert when the balance lasts fewer hours than this at the last 24 hours’ rate',
      }),
    ),
  ),
})
export const ProviderChangesBody = Type.Partial(Type.Omit(ProviderBody, ['code']))
export const Provider = Type.Object({
  code: Type.String(),
  kind: Type.String(),
  base_url: Type.String(),
  username: Nullable(Type.String()),
  has_api_key: Type.Boolean(),
  active: Type.Boolean(),
  balance_alert_below: Nullable(Type.Integer()),
  balance_alert_hours: Nullable(Type.Number()),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export const CodeParam = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) })
