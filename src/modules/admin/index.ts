// admin: the operator API over the modules' use cases, the store overview, and the demo seed.
export { adminCatalogRoutes } from './admin-catalog.routes.js'
export { adminOrderRoutes } from './admin-orders.routes.js'
export { adminRoutes } from './admin.routes.js'
export { seedDemo } from './demo.js'
export { operatorViewRoutes } from './operator-views.routes.js'
export { storeOverview } from './overview.service.js'
