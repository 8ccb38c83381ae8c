import type { ErrorCode } from '../errors.js'
import { ADMIN_CATALOG_DOCS, ADMIN_DOCS, ADMIN_ORDER_DOCS } from '../modules/admin/index.js'
import { BILL_DOCS } from '../modules/bills/index.js'
import { CATALOG_DOCS } from '../modules/catalog/index.js'
import { DASHBOARD_USER_ADMIN_DOCS } from '../modules/dashboard/index.js'
import { FULFILMENT_ADMIN_DOCS, VALIDATION_DOCS } from '../modules/fulfilment/index.js'
import { LEADERBOARD_DOCS } from '../modules/leaderboard/index.js'
import { LEDGER_DOCS } from '../modules/ledger/index.js'
import { LOCK_DOCS } from '../modules/locks/index.js'
import { ORDER_DOCS } from '../modules/orders/index.js'
import { TOPUP_ADMIN_DOCS, TOPUP_DOCS } from '../modules/topups/index.js'
import { ADMIN_WEBHOOK_DOCS, WEBHOOK_DOCS } from '../modules/webhooks/index.js'

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
  ...BILL_DOCS,
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
  ...DASHBOARD_USER_ADMIN_DOCS,
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
