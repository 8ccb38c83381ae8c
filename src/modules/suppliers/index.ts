// suppliers: each provider's price list as last read (supplier_products), its syncs and the changes
// they found (DESIGN §11b). Only route registration, the workers and the CLI use it.
export { supplierRoutes } from './suppliers.routes.js'
export { supplierSyncBatch } from './sync-worker.js'
export { syncActiveProviders, syncProvider, type SyncView } from './sync.service.js'
export { pruneChanges } from './retention.queries.js'
