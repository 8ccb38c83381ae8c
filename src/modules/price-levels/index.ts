// price-levels: groups of accounts and each item's price per group (docs/design.md §5d); owns
// price_levels, price_level_rules, item_level_prices, price_level_promotions and accounts.price_level_id.
export { priceLevelRoutes } from './price-levels.routes.js'
// The API's bodies, which the console's forms are held to.
export { LevelBody as LevelBodySchema, LevelChangesBody, LevelPricesBody, RulesBody } from './price-levels.schemas.js'
export {
  createPriceLevel,
  getItemLevelPrices,
  getLevelRules,
  getPriceLevel,
  listPriceLevels,
  replaceLevelRules,
  setAccountLevel,
  setAccountLevelWithin,
  setItemLevelPrices,
  updatePriceLevel,
  type LevelBody,
  type LevelPatch,
  type LevelRuleBody,
  type LevelView,
} from './price-levels.service.js'
