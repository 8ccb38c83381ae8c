import { operations } from '../../http/operation.js'

const reseller = {
  code: 'reseller',
  name: 'Reseller',
  position: 0,
  is_default: true,
  promote_at: 500,
  promote_to: 'h2h',
  created_at: '2026-12-01T03:00:00.000Z',
  updated_at: '2026-12-06T03:00:00.000Z',
}
const h2h = {
  code: 'h2h',
  name: 'H2H partner',
  position: 1,
  is_default: false,
  promote_at: null,
  promote_to: null,
  created_at: '2026-12-06T03:10:00.000Z',
  updated_at: '2026-12-06T03:10:00.000Z',
}
const rules = [
  { scope: 'all', percent: -2, round_to: 50 },
  { scope: 'brand', brand: 'Telkomsel', category_id: 3, percent: -1, flat: 25, round_to: 50 },
  { scope: 'item', item_id: 88, flat: -100 },
]
const ruleViews = [
  { id: 41, scope: 'all', category_id: null, brand: null, item_id: null, percent: -2, flat: 0, round_to: 50 },
  { id: 42, scope: 'brand', category_id: 3, brand: 'Telkomsel', item_id: null, percent: -1, flat: 25, round_to: 50 },
  { id: 43, scope: 'item', category_id: null, brand: null, item_id: 88, percent: 0, flat: -100, round_to: 1 },
]
const prices = [
  { level: 'reseller', name: 'Reseller', price: 21_500, manual: false, rule_id: null, changed_at: '2026-12-06T03:00:00.000Z' },
  { level: 'h2h', name: 'H2H partner', price: 21_000, manual: true, rule_id: null, changed_at: '2026-12-06T03:20:00.000Z' },
]

/** OpenAPI metadata of the price level routes (price-levels.routes.ts, docs/design.md §5d). */
export const PRICE_LEVEL_DOCS = operations({
  adminListPriceLevels: {
    description: 'Every price level by position: the one new accounts start at is `is_default`.',
    response: { message: 'OK', data: [reseller, h2h] },
  },
  adminCreatePriceLevel: {
    description:
      "Creates a level; its prices are each item's own until rules say otherwise. `is_default: true` takes the default from the level that had it. `promote_at` and `promote_to` go together (a code already taken is DUPLICATE).",
    codes: ['VALIDATION_ERROR', 'DUPLICATE'],
    request: { code: 'h2h', name: 'H2H partner', position: 1 },
    response: { message: 'OK', data: h2h },
  },
  adminUpdatePriceLevel: {
    description:
      'Renames a level, moves it, makes it the default (`is_default: false` on the default is refused: make another the default) or sets its promotion (`promote_at` with `promote_to`, or both null).',
    codes: ['VALIDATION_ERROR', 'PRICE_LEVEL_NOT_FOUND'],
    request: { name: 'H2H partners', promote_at: null, promote_to: null },
    response: { message: 'OK', data: { ...h2h, name: 'H2H partners' } },
  },
  adminListLevelRules: {
    description: "A level's rules by id.",
    codes: ['VALIDATION_ERROR', 'PRICE_LEVEL_NOT_FOUND'],
    response: { message: 'OK', data: ruleViews },
  },
  adminPutLevelRules: {
    description:
      "Replaces a level's whole rule set and recomputes its prices in one transaction: a purchase pays the old prices or the new, never a mix. Each rule's parts follow its scope (all: none; category: category_id; brand: brand, optionally category_id; item: item_id); one rule per target. Errors name the rule: `rules.0.category_id`.",
    codes: ['VALIDATION_ERROR', 'PRICE_LEVEL_NOT_FOUND'],
    request: { rules },
    response: { message: 'OK', data: { rules: ruleViews, prices_moved: 412 } },
  },
  adminGetItemLevelPrices: {
    description: "An item's price at every level, by level position, and where each comes from (a rule, or set by hand).",
    codes: ['VALIDATION_ERROR', 'ITEM_NOT_FOUND'],
    response: { message: 'OK', data: prices },
  },
  adminPutItemLevelPrices: {
    description:
      "Sets an item's price for some levels by hand (kept whatever the rules say, until cleared), or `null`: back to the level's rules. Levels not named keep theirs. Answers the item's price at every level.",
    codes: ['VALIDATION_ERROR', 'ITEM_NOT_FOUND'],
    request: { h2h: 21_000, reseller: null },
    response: { message: 'OK', data: prices },
  },
})
