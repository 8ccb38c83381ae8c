import { operations } from '../../http/operation.js'
import { validationFields } from '../catalog/index.js'

const ZONE_FIELDS = validationFields(true)

/** OpenAPI metadata of the validation routes (each carried by its route’s schema). */
export const VALIDATION_DOCS = operations({
  validateCustomer: {
    returns: 'The account found',
    codes: ['VALIDATION_ERROR', 'ITEM_NOT_FOUND', 'VALIDATION_NOT_AVAILABLE', 'PRODUCT_TEMPORARILY_UNAVAILABLE'],
    request: { item_id: 21, customer_id: '12345678', zone_id: '2001' },
    response: {
      message: 'OK',
      data: {
        display_name: 'PlayerOne',
        account_name: 'PlayerOne',
        region: 'ID',
        cached: false,
        details: { name: 'PlayerOne', region: 'ID' },
      },
    },
  },
  listValidationServices: {
    codes: ['VALIDATION_ERROR'],
    description:
      'The products and variants whose customer id can be checked with `POST /api/v1/item/validate`, and the fields each needs. A product’s `validation` names the endpoint and what it asks for (`zone_id` when any of its variants needs one); `meta` counts the products and the items (variants) listed.',
    returns: 'The validatable products',
    response: {
      message: 'OK',
      data: [
        {
          product_id: 9,
          product_name: 'Mobile Legends Diamonds',
          category: 'Games',
          validation: { available: true, requires_zone_id: true, fields: ZONE_FIELDS, endpoint: '/api/v1/item/validate' },
          variants: [{ item_id: 21, name: '86 Diamonds', requires_zone_id: true, fields: ZONE_FIELDS }],
        },
      ],
      meta: { total_products: 1, total_items: 1, total_variants: 1 },
    },
  },
})

const dispatch = {
  id: 318,
  order_id: 1051,
  invoice: 'INV20261122P8R4N6DA',
  account_id: 12,
  order_line_id: 2101,
  provider: 'smm-panel',
  kind: 'smm_panel',
  upstream_ref: 'INV20261122P8R4N6DA-1-1',
  upstream_order_id: null,
  provider_code: '1',
  target: 'https://instagram.com/tokomaju',
  quantity: 10,
  amount: 150000,
  status: 'review',
  upstream_status: null,
  sn: null,
  message: 'add sent, answer never recorded (the process stopped?): look the order up at the panel, then resolve as placed or failed',
  attempts: 1,
  first_sent_at: '2026-11-22T10:15:00.100Z',
  created_at: '2026-11-22T10:15:00.000Z',
  updated_at: '2026-11-22T10:15:30.000Z',
}

/** OpenAPI metadata of the operator's upstream routes (each carried by its route’s schema). */
// What GET and POST /providers/{code}/balance answer alike.
const providerBalance = {
  provider: 'digiflazz',
  balance: 1284500,
  currency: 'IDR',
  read_at: '2026-12-06T10:00:00.000Z',
  error: null,
  spent_24h: 2400000,
  hours_left: 12.8,
}

export const FULFILMENT_ADMIN_DOCS = operations({
  adminListDispatches: {
    codes: ['VALIDATION_ERROR'],
    description: 'Upstream requests by status (default `review`: those waiting for an operator).',
    response: { message: 'OK', data: [dispatch], meta: { page: 1, per_page: 50, total: 1, last_page: 1 } },
  },
  adminResolveDispatch: {
    description:
      'Settles an upstream request in review: `placed` with the panel’s `order_id` (smm, polled from then on) or an `sn` (h2h, delivered), or `failed` (refunded).',
    codes: ['VALIDATION_ERROR', 'DISPATCH_NOT_FOUND', 'INVALID_STATE'],
    request: { outcome: 'placed', order_id: '7730125' },
    response: { message: 'OK', data: { id: dispatch.id, status: 'pending', upstream_order_id: '7730125', sn: null } },
  },
  adminProviderBalance: {
    description:
      'The provider’s balance as last read (every SUPPLIER_BALANCE_MINUTES, on refresh, and at once after Digiflazz answers rc 44), what its completed requests cost in the last 24 hours, and the hours the balance lasts at that rate. A source whose known IDR balance is below a request’s cost gets no request (docs/design.md §11e).',
    codes: ['VALIDATION_ERROR', 'PROVIDER_NOT_FOUND', 'INVALID_STATE'],
    response: {
      message: 'OK',
      data: providerBalance,
    },
  },
  adminRefreshProviderBalance: {
    description:
      'Reads the provider’s balance now (Digiflazz cek-saldo, an SMM panel’s `balance` action) and answers as GET does; a provider that does not answer leaves the last good read and says why in `error`.',
    codes: ['VALIDATION_ERROR', 'PROVIDER_NOT_FOUND', 'INVALID_STATE'],
    response: {
      message: 'OK',
      data: providerBalance,
    },
  },
})
