import { Type, type Static } from '@sinclair/typebox'
import { ORDER_STATUSES } from '../../db/schema.js'
import { CursorQuery, OkCursorPage } from '../../http/paging.js'
import { IntegerOrDigits, Nullable, NumberAsText, Ok, PageNumber, RowIdOrDigits, StringEnum, Timestamp } from '../../http/schemas.js'
import { TopupExtras } from '../topups/index.js'

export const RefId = Type.String({ minLength: 1, maxLength: 191, description: 'your unique reference' })

// The public docs type the note string|json: an object is taken as its JSON text.
const Note = Type.Union(
  [
    Type.String({ maxLength: 1000, description: 'plain target (≤ 50) or, for smm/open denomination, a JSON object as a string' }),
    Type.Object({}, { additionalProperties: true, description: 'the same JSON object, sent as an object' }),
    NumberAsText,
  ],
  { description: 'the target: a number, account id or link; or for smm/open denomination a JSON object' },
)

// docs/design.md §11c, as Digiflazz buyers send it: the most one unit may cost, else PRICE_ABOVE_MAX.
const MaxPrice = IntegerOrDigits({
  minimum: 0,
  maximum: 1e15,
  description:
    'the most you will pay per unit (an open denomination: for the line); above it the purchase is refused with `PRICE_ABOVE_MAX` and nothing is charged',
  examples: [10150],
})

export const CartLine = Type.Object({
  item_id: RowIdOrDigits(),
  quantity: IntegerOrDigits({ minimum: 1, maximum: 1_000_000 }),
  note: Type.Optional(Nullable(Note)),
  max_price: Type.Optional(Nullable(MaxPrice)),
})

export const PurchaseBody = Type.Object({
  ref_id: RefId,
  carts: Type.Array(CartLine, { minItems: 1, maxItems: 50 }),
  // Clients often send absent fields as null or "": both mean no lock.
  lock_token: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
})
export type PurchaseBody = Static<typeof PurchaseBody>

export const OrderSummary = Type.Object({
  id: Type.Integer(),
  invoice: Type.String(),
  ref_id: Type.String(),
  amount: Type.Integer(),
  status: Type.String(),
  created_at: Timestamp,
})
export type OrderSummary = Static<typeof OrderSummary>

// The public docs' create response: the summary with price, fees and contact, in the docs' order.
export const CreatedOrderData = Type.Object({
  id: Type.Integer(),
  invoice: Type.String(),
  ref_id: Type.String(),
  status: Type.String(),
  price: Type.Integer(),
  fees: Type.Integer({ description: '0 for a balance purchase' }),
  amount: Type.Integer({ description: 'price + fees' }),
  contact: Nullable(Type.String({ description: 'the account’s email' })),
  created_at: Timestamp,
})
export type CreatedOrderData = Static<typeof CreatedOrderData>
export const CreatedOrder = Ok(CreatedOrderData)

const License = Type.Object({ product_license: Type.String(), note: Nullable(Type.String()) })

export const OrderItem = Type.Object({
  order_item_id: Type.Optional(
    Type.String({
      description: 'the line’s id, as a string: name it in a complaint (POST /api/v1/trx/{ref}/complaints); absent on a sandbox order',
    }),
  ),
  variant_id: Type.Integer(),
  variant_name: Type.String(),
  product_id: Type.Integer(),
  product_name: Type.String(),
  quantity: Type.Integer(),
  qty: Type.Integer({ description: 'the same as quantity (the public docs’ name)' }),
  price: Type.Integer({ description: 'unit price' }),
  subtotal: Type.Integer(),
  note: Nullable(
    Type.String({ description: 'the note you sent with the line (the buyer’s): a target, an account id or a JSON object as text' }),
  ),
  buyer_note: Nullable(Type.String({ description: 'the same as note, by a name no payload gives another meaning' })),
  target: Nullable(Type.String()),
  order_process: Type.String(),
  status: Type.String({
    description: 'pending, processing, completed (delivered: operators see the word delivered), sent, refunded or cancel_requested',
  }),
  product_license: Nullable(Type.String({ description: 'auto and delivered manual lines: all licenses, one per line; else null' })),
  licenses: Type.Optional(Type.Array(License)),
  is_smm: Type.Optional(Type.Literal(true, { description: 'an smm line (present only there)' })),
  provider_status: Type.Optional(
    Nullable(Type.String({ description: 'an smm line: the panel’s own word for its order now; null before it has one' })),
  ),
  seller_note: Nullable(Type.String({ description: 'the note the seller left delivering a manual line' })),
  description: Nullable(Type.String({ description: 'the item’s description' })),
  customer_name: Type.Optional(Type.String({ description: 'a postpaid bill’s line: the customer the bill is for' })),
  period: Type.Optional(Type.String({ description: 'a postpaid bill’s line: the periods paid, comma-separated' })),
  bill: Type.Optional(
    Type.Object(
      {
        customer_id: Type.String(),
        bill_count: Type.Integer(),
        bill_amount: Type.Integer(),
        admin_fee: Type.Integer(),
        penalty: Type.Integer(),
        amount: Type.Integer({ description: 'bill_amount + penalty + admin_fee: the line’s subtotal' }),
        details: Type.Array(
          Type.Object({ period: Type.String(), bill_amount: Type.Integer(), admin: Type.Integer(), penalty: Type.Integer() }),
        ),
      },
      { description: 'a postpaid bill’s line: the bill as its inquiry found it' },
    ),
  ),
})

export const H2hResult = Type.Object({
  variant_id: Type.Integer(),
  sn: Type.String(),
  dispatch_status: Type.String(),
  log_message: Type.String(),
  h2h_provider: Nullable(Type.String({ description: 'the provider’s code' })),
  provider_meta: Nullable(
    Type.Object({
      open_denom: Type.Boolean(),
      min_qty: Nullable(Type.Integer()),
      max_qty: Nullable(Type.Integer()),
      step_qty: Nullable(Type.Integer()),
      price_unit: Type.Optional(Type.Integer()),
      qty_label: Type.Optional(Nullable(Type.String())),
    }),
  ),
})
export const SmmResult = Type.Object({
  variant_id: Type.Integer(),
  order_id: Type.String(),
  status: Type.String(),
  start_count: Type.Integer(),
  remains: Type.Integer(),
  provider_status: Nullable(Type.String({ description: 'the panel’s own word' })),
  delivered_count: Type.Integer(),
  refund_amount: Type.Integer(),
  partial_refund_pending_manual: Type.Boolean({ description: 'true while a partial refund waits for an operator' }),
})

export const OrderDetail = Type.Object({
  id: Type.Integer(),
  ref_id: Type.String(),
  invoice: Type.String(),
  payment_method: Type.String(),
  status: Type.String(),
  price: Type.Integer(),
  fees: Nullable(Type.Integer()),
  amount: Type.Integer({ description: 'price + fees' }),
  note: Nullable(Type.String()),
  payment_link: Nullable(Type.String({ description: 'a top-up’s payment page; null for a purchase' })),
  qr_link: Nullable(Type.String({ description: 'a QRIS top-up’s QR page; else null' })),
  expired_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
  items: Type.Array(OrderItem),
  h2h_results: Type.Array(H2hResult),
  smm_results: Type.Array(SmmResult),
  ...TopupExtras,
})
export type OrderDetail = Static<typeof OrderDetail>

export const OrderRetrieval = Type.Object({
  message: Type.Literal('OK'),
  data: OrderDetail,
  h2h_results: Type.Array(H2hResult),
  smm_results: Type.Array(SmmResult),
})

export const OrderStatus = StringEnum(ORDER_STATUSES)

export const ListQuery = Type.Object({
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
  status: Type.Optional(OrderStatus),
  ...CursorQuery,
})

/** GET /v1/trx: the public docs call a canceled transaction failed, so either word filters the same. */
export const PurchaseListQuery = Type.Object({
  ...ListQuery.properties,
  per_page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 50, default: 20, description: 'at most 50; a larger number is taken as 50' }),
  ),
  status: Type.Optional(Type.Union([OrderStatus, Type.Literal('failed', { description: 'the same as canceled (the public docs’ word)' })])),
})

export const OrderList = OkCursorPage(OrderSummary)

// Longer than any ref_id is simply not found, not a validation error.
export const RefParam = Type.Object({ ref: Type.String({ minLength: 1, maxLength: 2000 }) })

export const SandboxBody = Type.Object({
  ref_id: RefId,
  item_id: RowIdOrDigits(),
  quantity: IntegerOrDigits({ minimum: 1, maximum: 1_000_000 }),
  note: Type.Optional(Nullable(Note)),
  max_price: Type.Optional(Nullable(MaxPrice)),
})
export const SandboxOrder = Ok(
  Type.Object({ id: Type.Integer(), ref_id: Type.String(), invoice: Type.String(), status: Type.Literal('sandbox') }),
)
