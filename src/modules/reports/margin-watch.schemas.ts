import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Ok, StringEnum } from '../../http/schemas.js'
import { MarginQuery } from './reports.schemas.js'

export const WATCH_CAUSES = ['failover', 'allow_loss', 'price_locked', 'cost_rise'] as const

export const MarginWatchQuery = Type.Pick(MarginQuery, ['from', 'to'])
export type MarginWatchQuery = Static<typeof MarginWatchQuery>

const Reseller = { reseller_id: Type.Integer(), reseller_name: Type.String() }
const Item = { item_id: Type.Integer(), item_name: Type.String({ description: 'the product’s name — the item’s name' }) }

export const BelowFloorLine = Type.Object({
  order_id: Type.Integer(),
  invoice: Type.String(),
  ref_id: Type.String({ description: 'the reseller’s ref_id of the order' }),
  ...Reseller,
  ...Item,
  quantity: Type.Integer(),
  revenue: Type.Integer({ description: 'subtotal − refunded_amount' }),
  cost: Type.Integer({ description: 'what the line cost us, as the margin report counts it' }),
  floor_margin: Type.Integer({ description: 'the item’s min_margin (else the store’s) × quantity, scaled to what was not refunded' }),
  loss: Type.Integer({ description: 'cost − revenue: money lost (0 or less when the line kept a margin, only below the floor)' }),
  short_of_floor: Type.Integer({ description: 'cost + floor_margin − revenue: how far below the floor it sold' }),
  cause: StringEnum(WATCH_CAUSES, { description: 'why it sold below the floor; see the description' }),
  created_at: Type.String({ format: 'date-time' }),
})

export const RefusedBill = Type.Object({
  inquiry_id: Type.Integer(),
  ...Reseller,
  ...Item,
  customer_id: Type.String(),
  customer_name: Type.String(),
  amount: Type.Integer({ description: 'what the reseller would have paid' }),
  supplier_price: Nullable(Type.Integer({ description: 'what the supplier asked for the bill (inq-pasca `price`)' })),
  cause: Type.Literal('bill'),
  created_at: Type.String({ format: 'date-time' }),
})

export const FloorBlockedItem = Type.Object({
  ...Item,
  sku: Type.String(),
  level: Type.String({ description: 'the price level it cannot sell at (docs/design.md §5d: one row per level)' }),
  price: Type.Integer({ description: 'its price at that level' }),
  cheapest_cost: Type.Number({
    description: 'the lowest price of its sources that are listed and outside their cut-off, per unit of price',
  }),
  floor_margin: Type.Integer({ description: 'the item’s min_margin, else the store’s' }),
  price_locked: Type.Boolean(),
})

const Section = <T extends ReturnType<typeof Type.Object>>(row: T, what: string) =>
  Type.Object({
    total: Type.Integer({ description: `how many ${what} there are; at most 500 are listed` }),
    rows: Type.Array(row),
  })

export const MarginWatch = Type.Object({
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date' }),
  time_zone: Type.String({ description: 'LEADERBOARD_TZ: where a day starts' }),
  lines: Section(BelowFloorLine, 'lines sold below the floor in the period'),
  bills: Section(RefusedBill, 'bill inquiries the floor refused in the period'),
  items: Section(FloorBlockedItem, 'items and levels the floor keeps from selling now'),
})
export type MarginWatch = Static<typeof MarginWatch>
export const MarginWatchAnswer = Ok(MarginWatch)
