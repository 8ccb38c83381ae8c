import type { ErrorCode } from '../errors.js'
import { ADMIN_CATALOG_DOCS } from '../modules/admin/admin-catalog.openapi.js'
import { ADMIN_WEBHOOK_DOCS } from '../modules/admin/admin-webhooks.openapi.js'
import { ADMIN_ORDER_DOCS } from '../modules/admin/admin-orders.openapi.js'
import { ADMIN_DOCS } from '../modules/admin/admin.openapi.js'
import { CATALOG_DOCS } from '../modules/catalog/catalog.openapi.js'
import { FULFILMENT_ADMIN_DOCS, VALIDATION_DOCS } from '../modules/fulfilment/fulfilment.openapi.js'
import { LEADERBOARD_DOCS } from '../modules/leaderboard/leaderboard.openapi.js'
import { LEDGER_DOCS } from '../modules/ledger/ledger.openapi.js'
import { LOCK_DOCS } from '../modules/locks/locks.openapi.js'
import { ORDER_DOCS } from '../modules/orders/orders.openapi.js'
import { TOPUP_ADMIN_DOCS, TOPUP_DOCS } from '../modules/topups/topups.openapi.js'
import { WEBHOOK_DOCS } from '../modules/webhooks/webhooks.openapi.js'

/** What the OpenAPI document says of one operation beyond its schemas; kept beside the module, out of the route files. */
export type OperationDoc = {
  operationId: string
  description: string
  /** The success response's description. */
  returns?: string
  /** Codes this route answers beyond the common ones of its audience; each is listed under its status of src/errors.ts. */
  codes?: ErrorCode[]
  request?: unknown
  response?: unknown
  errorExamples?: Partial<Record<ErrorCode, object>>
}
/** Keyed `METHOD /path/{param}` as the document names the operation. */
export type OperationDocs = Record<string, OperationDoc>

export const OPERATION_DOCS: OperationDocs = {
  ...LEDGER_DOCS,
  ...CATALOG_DOCS,
  ...ORDER_DOCS,
  ...LOCK_DOCS,
  ...TOPUP_DOCS,
  ...VALIDATION_DOCS,
  ...WEBHOOK_DOCS,
  ...LEADERBOARD_DOCS,
  ...ADMIN_DOCS,
  ...ADMIN_CATALOG_DOCS,
  ...ADMIN_WEBHOOK_DOCS,
  ...ADMIN_ORDER_DOCS,
  ...TOPUP_ADMIN_DOCS,
  ...FULFILMENT_ADMIN_DOCS,
}

export const TAGS = [
  { name: 'balance', description: 'Your balance, its ledger, and top-ups' },
  { name: 'catalog', description: 'What can be bought, with delta sync' },
  { name: 'transactions', description: 'Buying, and reading back what was bought' },
  { name: 'stock locks', description: 'Reserving stock before buying' },
  { name: 'webhooks', description: 'Callbacks on every order status change' },
  { name: 'gateway', description: 'What payment gateways call' },
  { name: 'operator', description: 'The operator API (Authorization: Bearer ADMIN_TOKEN)' },
]
