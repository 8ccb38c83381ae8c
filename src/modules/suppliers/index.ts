// suppliers: each provider's price list as last read (supplier_products), its syncs and the changes
// they found (docs/design.md §11b). Only route registration, the workers and the CLI use it.
export { supplierRoutes } from './suppliers.routes.js'
export { pricingRoutes } from './pricing.routes.js'
export { sourceRoutes } from './sources.routes.js'
export { repriceItems, repriceItemsNow, repriceProviderNow } from './reprice.service.js'
// The service's start writes MIN_MARGIN with this.
export { recordMinMargin } from './margin-settings.service.js'
export { supplierSyncBatch } from './sync-worker.js'
export { syncActiveProviders, syncProvider, type SyncView } from './sync.service.js'
// The demo seed imports its catalog from the simulators' lists with this.
export { importListWithin } from './list-import.service.js'
export { pruneChanges } from './retention.queries.js'
// The console's supplier pages use these: syncs and changes, pricing rules, an item's sources.
export { providerSyncs, type ProviderSyncs } from './supplier-overview.service.js'
export { supplierChanges } from './supplier-products.service.js'
export { decideHeldPrice, heldPrices } from './held-prices.service.js'
export { deletePricingRule, listPricingRules, putPricingRule, type RuleView } from './pricing-rules.service.js'
export { RuleBody } from './pricing.schemas.js'
export { getItemSources, putItemSources } from './sources.service.js'
export { SourcesBody } from './sources.schemas.js'
