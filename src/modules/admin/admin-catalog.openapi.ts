import { operations } from '../../http/operation.js'

const category = {
  id: 3,
  name: 'Games',
  slug: 'games',
  icon: 'https://cdn.example/icons/games.png',
  product_count: 2,
  item_count: 7,
  created_at: '2026-11-22T03:00:00.000Z',
}
const product = {
  id: 12,
  name: 'Mobile Legends',
  image: 'https://cdn.example/img/mlbb.png',
  category_id: 3,
  category: 'Games',
  item_count: 5,
  created_at: '2026-11-22T03:05:00.000Z',
}
const meta = { page: 1, per_page: 50, total: 1, last_page: 1 }

/** OpenAPI metadata of the operator's category and product routes (admin-catalog.routes.ts). */
export const ADMIN_CATALOG_DOCS = operations({
  adminListCategories: {
    codes: ['VALIDATION_ERROR'],
    description: 'Categories by id, each with how many products and items it holds; `search` in the name.',
    response: { message: 'OK', data: [category], meta },
  },
  adminCreateCategory: {
    description: 'Creates a category before any item names it (items may still create one by name). A name already taken is DUPLICATE.',
    codes: ['VALIDATION_ERROR', 'DUPLICATE'],
    request: { name: 'Games', icon: 'https://cdn.example/icons/games.png' },
    response: { message: 'OK', data: { ...category, product_count: 0, item_count: 0 } },
  },
  adminGetCategory: {
    description: 'One category with its counts.',
    codes: ['VALIDATION_ERROR', 'CATEGORY_NOT_FOUND'],
    response: { message: 'OK', data: category },
  },
  adminUpdateCategory: {
    description:
      'Renames a category or changes its icon (null or "" clears it). Every item under it is stamped, so the next `updated_since` delta of GET /v1/item carries the new name.',
    codes: ['VALIDATION_ERROR', 'CATEGORY_NOT_FOUND', 'DUPLICATE'],
    request: { name: 'Game Vouchers' },
    response: { message: 'OK', data: { ...category, name: 'Game Vouchers' } },
  },
  adminDeleteCategory: {
    description: 'Deletes a category without products (one with products is INVALID_STATE: move or delete them first).',
    codes: ['VALIDATION_ERROR', 'CATEGORY_NOT_FOUND', 'INVALID_STATE'],
    response: { message: 'OK', data: { id: 4, name: 'Typo', deleted: true } },
  },
  adminListProducts: {
    codes: ['VALIDATION_ERROR'],
    description: 'Products by category and id, each with its category and item count; `category` by id or name, `search` in the name.',
    response: { message: 'OK', data: [product], meta },
  },
  adminCreateProduct: {
    description:
      'Creates a product in the category `category_id`, or in `category` by name (created on first use; neither: Uncategorized). Its name is unique within the category (else DUPLICATE).',
    codes: ['VALIDATION_ERROR', 'DUPLICATE'],
    request: { name: 'Mobile Legends', category_id: 3, image: 'https://cdn.example/img/mlbb.png' },
    response: { message: 'OK', data: { ...product, item_count: 0 } },
  },
  adminGetProduct: {
    description: 'One product with its category and item count.',
    codes: ['VALIDATION_ERROR', 'PRODUCT_NOT_FOUND'],
    response: { message: 'OK', data: product },
  },
  adminListProductItems: {
    description: 'The items (variants) of one product, on or off, by id: what its console page lists.',
    codes: ['VALIDATION_ERROR', 'PRODUCT_NOT_FOUND'],
    response: {
      message: 'OK',
      data: [{ id: 88, sku: 'ML-86', name: '86 Diamonds', price: 21500, order_process: 'h2h', active: true }],
    },
  },
  adminUpdateProduct: {
    description:
      'Renames a product, changes its image (null or "" clears it) or moves it to another category with its items. Its items are stamped, so the next catalog delta carries the change.',
    codes: ['VALIDATION_ERROR', 'PRODUCT_NOT_FOUND', 'DUPLICATE'],
    request: { name: 'Mobile Legends: Bang Bang', category_id: 3 },
    response: { message: 'OK', data: { ...product, name: 'Mobile Legends: Bang Bang' } },
  },
  adminDeleteProduct: {
    description: 'Deletes a product without items (one with items is INVALID_STATE: items keep their sales history; switch them off).',
    codes: ['VALIDATION_ERROR', 'PRODUCT_NOT_FOUND', 'INVALID_STATE'],
    response: { message: 'OK', data: { id: 13, name: 'Typo', deleted: true } },
  },
})
