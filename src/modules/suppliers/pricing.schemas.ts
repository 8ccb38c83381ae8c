import { Type } from '@sinclair/typebox'
import { Nullable, StringEnum, Timestamp } from '../../http/schemas.js'

const Names = (what: string) =>
  Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 191 }), { minItems: 1, maxItems: 500, description: `${what}, any case` }))
export const ImportBody = Type.Object({
  categories: Names('supplier categories'),
  brands: Names('supplier brands (a panel’s: its categories)'),
  types: Names('supplier product types'),
  codes: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 191 }), {
      minItems: 1,
      maxItems: 5000,
      description: 'supplier product codes, exact',
    }),
  ),
  dry_run: Type.Optional(Type.Boolean({ default: false, description: 'answer what would be created, create nothing' })),
})

export const ImportResult = Type.Object({
  provider: Type.String(),
  dry_run: Type.Boolean(),
  created: Type.Array(
    Type.Object({
      id: Nullable(Type.Integer({ description: 'null in a dry run' })),
      sku: Type.String(),
      code: Type.String({ description: 'the supplier product it is bought from' }),
      name: Type.String(),
      category: Type.String(),
      cost: Type.Number({ description: 'what one unit costs at the supplier (a panel: its rate / 1,000)' }),
      price: Type.Integer(),
      rule_id: Nullable(Type.Integer({ description: 'the pricing rule that set the price; null: no rule, priced at cost' })),
    }),
  ),
  skipped: Type.Array(
    Type.Object({
      code: Type.String(),
      name: Type.String(),
      item_id: Nullable(Type.Integer({ description: 'linked: the item bought from it; else null' })),
      reason: StringEnum(['linked', 'held', 'invalid_price'], {
        description:
          'linked: an item is already bought from it; held: its listed price waits for a decision (GET /providers/{code}/held); invalid_price: priced 0 or out of the money bounds',
      }),
    }),
    { description: 'products no item was created for, and why' },
  ),
  skipped_count: Type.Object(
    { linked: Type.Integer(), held: Type.Integer(), invalid_price: Type.Integer() },
    { description: 'how many were skipped for each reason' },
  ),
  not_found: Type.Array(Type.String(), { description: 'codes asked for that the list does not have (or no longer lists)' }),
})

const RoundTo = Type.Union([Type.Literal(1), Type.Literal(50), Type.Literal(100), Type.Literal(500), Type.Literal(1000)], {
  description: 'the price is rounded up to a multiple of this',
})
const Scope = StringEnum(['provider', 'category', 'brand', 'item'])
const KeyName = Type.String({ minLength: 1, maxLength: 191 })

export const RuleBody = Type.Object({
  scope: Scope,
  provider: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'provider, category and brand scopes' })),
  category: Type.Optional(KeyName),
  brand: Type.Optional(KeyName),
  item_id: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'item scope' })),
  percent: Type.Number({ minimum: 0, maximum: 1000, description: 'markup on the cost, in percent (decimals allowed)' }),
  flat: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0, description: 'added after the percent' })),
  round_to: Type.Optional(RoundTo),
  min_margin: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0, description: 'the price is never below cost + this' }),
  ),
})

export const Rule = Type.Object({
  id: Type.Integer(),
  scope: Scope,
  provider: Nullable(Type.String()),
  category: Nullable(Type.String()),
  brand: Nullable(Type.String()),
  item_id: Nullable(Type.Integer()),
  percent: Type.Number(),
  flat: Type.Integer(),
  round_to: Type.Integer(),
  min_margin: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export const RuleChange = Type.Object({
  rule: Rule,
  created: Type.Boolean({ description: 'a new rule (false: an existing rule’s terms changed)' }),
  repriced: Type.Integer({ description: 'items whose cost or price this change moved' }),
})
export const RuleDeleted = Type.Object({
  rule: Rule,
  repriced: Type.Integer({ description: 'items whose price moved to the next most specific rule' }),
})
