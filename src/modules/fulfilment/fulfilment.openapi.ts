import type { OperationDocs } from '../../http/openapi-docs.js'

/** OpenAPI metadata of the validation routes (merged by src/http/openapi-docs.ts). */
export const VALIDATION_DOCS: OperationDocs = {
  'POST /api/v1/item/validate': {
    operationId: 'validateCustomer',
    description:
      'Checks a game account, PLN meter or number before buying an item that supports it (see `GET /api/v1/validation/services`); a found account is cached for 5 minutes (`cached: true`). An unknown account is a 422 on `customer_id`.',
    returns: 'The account found',
    codes: ['ITEM_NOT_FOUND', 'VALIDATION_NOT_AVAILABLE', 'PRODUCT_TEMPORARILY_UNAVAILABLE'],
    request: { item_id: 21, customer_id: '12345678', zone_id: '2001' },
    response: { message: 'OK', data: { display_name: 'PlayerOne', account_name: 'PlayerOne', region: 'ID', cached: false } },
  },
  'GET /api/v1/validation/services': {
    operationId: 'listValidationServices',
    description: 'The products and variants whose customer id can be checked with `POST /api/v1/item/validate`, and the fields each needs.',
    returns: 'The validatable products',
    response: {
      message: 'OK',
      data: [
        {
          product_id: 9,
          product_name: 'Mobile Legends Diamonds',
          category: 'Games',
          variants: [{ item_id: 21, name: '86 Diamonds', requires_zone_id: true, fields: ['customer_id', 'zone_id'] }],
        },
      ],
      meta: { total_products: 1, total_variants: 1 },
    },
  },
}
