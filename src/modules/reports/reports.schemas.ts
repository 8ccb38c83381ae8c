import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Ok, StringEnum } from '../../http/schemas.js'

export const MARGIN_GROUPS = ['item', 'provider', 'reseller', 'level', 'day'] as const
export type MarginGroup = (typeof MARGIN_GROUPS)[number]

const Day = (description: string) => Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description, examples: ['2026-11-01'] })

export const MarginQuery = Type.Object({
  from: Type.Optional(Day('YYYY-MM-DD, the first day counted (inclusive) in LEADERBOARD_TZ; default 29 days before `to`')),
  to: Type.Optional(Day('YYYY-MM-DD, the last day counted (inclusive) in LEADERBOARD_TZ; default today')),
  group: Type.Optional(
    StringEnum(MARGIN_GROUPS, {
      default: 'day',
      description: 'what a row sums: an item, a source, a reseller, a price level (the buyer’s when it bought) or a day',
    }),
  ),
})
export type MarginQuery = Static<typeof MarginQuery>

const Figures = {
  orders: Type.Integer({ description: 'orders with a line in the row' }),
  lines: Type.Integer(),
  revenue: Type.Integer({ description: 'what resellers paid for the lines, net of refunds: subtotal − refunded_amount' }),
  cost: Type.Integer({ description: 'what the lines cost us (see the description); lines of unknown cost add 0' }),
  margin: Type.Integer({ description: 'revenue − cost' }),
  margin_percent: Nullable(Type.Number({ description: 'margin / revenue × 100, to 2 decimals; null without revenue' })),
  unknown_cost_lines: Type.Integer({
    description: 'lines whose cost is not known (bought before costs were recorded, or an item without one)',
  }),
}

export const MarginRow = Type.Object({
  key: Type.String({ description: 'item id, provider code (or `stock`, `manual`), account id, or the day YYYY-MM-DD' }),
  label: Type.String({ description: 'the item’s product and name, the provider, the reseller’s name, or the day' }),
  ...Figures,
})
export type MarginRow = Static<typeof MarginRow>

export const MarginReport = Type.Object({
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date' }),
  time_zone: Type.String({ description: 'LEADERBOARD_TZ: where a day starts' }),
  group: StringEnum(MARGIN_GROUPS),
  rows: Type.Array(MarginRow),
  totals: Type.Object(Figures),
})
export type MarginReport = Static<typeof MarginReport>
export const MarginAnswer = Ok(MarginReport)
