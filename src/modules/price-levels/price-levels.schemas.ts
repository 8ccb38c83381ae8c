import { Type } from '@sinclair/typebox'
import { Nullable, Ok, RowId, StringEnum, Timestamp } from '../../http/schemas.js'

const CODE = '^[a-z0-9-]{2,32}$'
const Code = (description: string) => Type.String({ pattern: CODE, description })
// Not blank: the table refuses a name that trims to nothing, which would otherwise surface as a 500.
const LevelName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' })
const Position = Type.Integer({ minimum: -1_000_000, maximum: 1_000_000, description: 'order in lists and the console (lowest first)' })
const PromoteAt = Nullable(
  Type.Integer({ minimum: 1, maximum: 100_000_000, description: "this month's transaction count (leaderboard) that moves an account up" }),
)
const PromoteTo = Nullable(Code('the level an account at promote_at moves up to; given with promote_at, or both null'))

export const Level = Type.Object({
  code: Type.String(),
  name: Type.String(),
  position: Type.Integer(),
  is_default: Type.Boolean({ description: 'new accounts start at it; exactly one level is the default' }),
  promote_at: Nullable(Type.Integer()),
  promote_to: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
})

// A path's code is any short text: an unknown one is PRICE_LEVEL_NOT_FOUND, not a validation error.
export const CodeParam = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) })

export const LevelBody = Type.Object({
  code: Code('lower-case letters, digits and "-", 2 to 32: what PATCH /resellers/{id} price_level names'),
  name: LevelName,
  position: Type.Optional(Position),
  is_default: Type.Optional(Type.Boolean({ description: 'true: the default from now on (the previous default gives it up)' })),
  promote_at: Type.Optional(PromoteAt),
  promote_to: Type.Optional(PromoteTo),
})
export const LevelChangesBody = Type.Object({
  name: Type.Optional(LevelName),
  position: Type.Optional(Position),
  is_default: Type.Optional(
    Type.Boolean({ description: 'true moves the default here; false on the default is refused (make another level the default)' }),
  ),
  promote_at: Type.Optional(PromoteAt),
  promote_to: Type.Optional(PromoteTo),
})

const RoundTo = Type.Union([Type.Literal(1), Type.Literal(50), Type.Literal(100), Type.Literal(500), Type.Literal(1000)], {
  description: 'the price is rounded up to a multiple of this (default 1)',
})
const Scope = StringEnum(['all', 'category', 'brand', 'item'], {
  description: 'what the rule covers; the most specific wins: item > brand with category > brand > category > all',
})

export const RuleBody = Type.Object({
  scope: Scope,
  category_id: Type.Optional(RowId({ description: 'category scope; a brand rule may narrow to a category' })),
  brand: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "brand scope: a product's name, any case" })),
  item_id: Type.Optional(RowId({ description: 'item scope' })),
  percent: Type.Optional(
    Type.Number({
      exclusiveMinimum: -100,
      maximum: 10_000,
      description: "on the item's own price, in percent (3 decimals; negative for a discount); default 0",
    }),
  ),
  flat: Type.Optional(Type.Integer({ minimum: -1_000_000_000, maximum: 1_000_000_000, description: 'Rupiah added after the percent' })),
  round_to: Type.Optional(RoundTo),
})
export const RulesBody = Type.Object({
  rules: Type.Array(RuleBody, { maxItems: 2000, description: "the level's whole rule set: replaces the one it has" }),
})

export const Rule = Type.Object({
  id: Type.Integer(),
  scope: Type.String(),
  category_id: Nullable(Type.Integer()),
  brand: Nullable(Type.String()),
  item_id: Nullable(Type.Integer()),
  percent: Type.Number(),
  flat: Type.Integer(),
  round_to: Type.Integer(),
})

export const ItemLevelPrice = Type.Object({
  level: Type.String({ description: "the level's code" }),
  name: Type.String(),
  price: Type.Integer({ description: 'what an account at this level pays' }),
  manual: Type.Boolean({ description: 'set by hand (kept until cleared with null); false: from the level rules' }),
  rule_id: Nullable(Type.Integer({ description: 'the level rule that made the price; null: set by hand or no rule (the own price)' })),
  changed_at: Nullable(Timestamp),
})

export const LevelPricesBody = Type.Record(
  Type.String({ pattern: CODE }),
  Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000_000_000_000 })),
  {
    description: 'level code → a price set by hand, or null: back to the level rules; levels not named keep theirs',
    maxProperties: 100,
  },
)

export const LevelList = Ok(Type.Array(Level))
export const OneLevel = Ok(Level)
export const RuleList = Ok(Type.Array(Rule, { description: 'by id' }))
export const RulesReplaced = Ok(
  Type.Object({
    rules: Type.Array(Rule),
    prices_moved: Type.Integer({ description: "how many of the level's item prices moved" }),
  }),
)
export const ItemLevelPrices = Ok(Type.Array(ItemLevelPrice, { description: 'one per level, by position' }))
