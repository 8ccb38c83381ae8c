import type { ColumnType, Generated } from 'kysely'
import type { Id, Timestamp } from './columns.js'

// The price levels (docs/design.md §5d): groups of accounts, each seeing its own price of every item.

export interface PriceLevelsTable {
  id: Id
  /** [a-z0-9-]{2,32}: how the API, console and CLI name it. */
  code: string
  name: string
  /** Order in the console (ascending). */
  position: Generated<number>
  /** Exactly one level is the default: new accounts get it. */
  is_default: Generated<boolean>
  /** This month's transaction count at which an account moves up to promote_to, once. */
  promote_at: number | null
  promote_to: number | null
  created_at: Generated<Date>
  updated_at: Timestamp
}

export type LevelRuleScope = 'all' | 'category' | 'brand' | 'item'
export type LevelRoundTo = 1 | 50 | 100 | 500 | 1000

/** price = round_up(base × (1 + percent/100) + flat, round_to); the most specific matching rule wins. */
export interface PriceLevelRulesTable {
  id: Id
  level_id: number
  scope: LevelRuleScope
  /** category scope; narrows a brand rule to one category. */
  category_id: number | null
  /** A product's name (imports name products by the supplier's brand), any case. */
  brand: string | null
  item_id: number | null
  /** numeric(9,3) as text; may be negative (above -100). */
  percent: ColumnType<string, string | number, string | number>
  flat: Generated<number>
  round_to: LevelRoundTo
  created_at: Generated<Date>
  updated_at: Timestamp
}

/** An item's stored price at a level: by its rule, or set by hand (manual) and then kept. */
export interface ItemLevelPricesTable {
  item_id: number
  level_id: number
  price: number
  manual: Generated<boolean>
  rule_id: number | null
  changed_at: Date
}

export interface PriceLevelPromotionsTable {
  account_id: number
  from_level_id: number
  to_level_id: number
  month: Date
  transactions: number
  promoted_at: Generated<Date>
}
