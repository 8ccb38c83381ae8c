// catalog: categories → products → items, providers, licenses, stock (items.stock is written here and
// by purchase() only), the catalog snapshot and its change clock.
export { findStockForSale, offersValidation } from './catalog.queries.js'
export { catalogRoutes } from './catalog.routes.js'
export { ValidationFields, Variant } from './catalog.schemas.js'
export {
  listOperatorItems,
  publicProviderMeta,
  toVariant,
  VALIDATE_ENDPOINT,
  validationFields,
  type ValidationField,
} from './catalog.service.js'
export { createCatalogCache, renewCatalogAfterWrites, watchCatalogChanges, type CatalogCache } from './catalog-snapshot.js'
export { createCategory, deleteCategory, getCategory, listCategories, updateCategory } from './categories.service.js'
export {
  addLicenses,
  addLicensesWithin,
  createItem,
  createItemsWithin,
  createItemWithin,
  getAdminItem,
  updateItem,
} from './items.service.js'
export { followFirstSource, lockItemForSources } from './item-provider.service.js'
export { createProduct, deleteProduct, getProduct, listProductItems, listProducts, updateProduct } from './products.service.js'
export { createProvider, listProviders, updateProvider } from './providers.service.js'
export { refuseUnsellable } from './sellable.js'
export { lowStockItems, resendLineLicenses, returnStock } from './stock.service.js'
export { setSupplierPrices, type SupplierPrice } from './supplier-prices.service.js'
