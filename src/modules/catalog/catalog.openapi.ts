import { operations } from '../../http/operation.js'

const variant = {
  id: 7,
  sku: 'VCR-25K',
  name: 'Voucher 25K',
  description: 'Delivered at once as a code',
  price: 25000,
  stock: 120,
  unlimited_stock: false,
  min_order: 1,
  max_order: null,
  order_process: 'auto',
  status: 'on',
  h2h_provider: null,
  provider_meta: { open_denom: false, min_qty: null, max_qty: null, step_qty: null },
  postpaid: false,
  required_fields: [],
  validation: { available: false, requires_zone_id: false, fields: [], endpoint: null },
  updated_at: '2026-11-22T09:00:00.000Z',
}

/** OpenAPI metadata of the catalog routes (each carried by its route’s schema). */
export const CATALOG_DOCS = operations({
  listItems: {
    codes: ['VALIDATION_ERROR'],
    returns: 'The catalog, with `server_time` for the next delta sync',
    response: {
      message: 'OK',
      data: [
        { id: 1, name: 'Games', slug: 'games', icon: null, products: [{ id: 3, name: 'Game Voucher', image: null, variants: [variant] }] },
      ],
      meta: { total_items: 1, is_delta: false, page: 1, per_page: 100, last_page: 1 },
      server_time: '2026-11-22T10:15:00.000Z',
    },
  },
  getItem: {
    description: "One variant, flat, with its product and category names, at your account's price level.",
    returns: 'The variant',
    codes: ['VALIDATION_ERROR', 'ITEM_NOT_FOUND'],
    response: { message: 'OK', data: { ...variant, product_id: 3, product_name: 'Game Voucher', category: 'Games' } },
  },
})
