import type { OperationDocs } from '../../http/openapi-docs.js'
import { cursorMeta, orderDetail, orderRows } from './admin.examples.js'

const line = orderDetail.items[0]

/** OpenAPI metadata of the operator's transaction routes (merged by src/http/openapi-docs.ts). */
export const ADMIN_ORDER_DOCS: OperationDocs = {
  'GET /api/admin/v1/transactions': {
    operationId: 'adminListTransactions',
    description: 'Transactions of every account, newest first, paged; filter by status or account.',
    response: { message: 'OK', data: orderRows, meta: cursorMeta(2) },
  },
  'GET /api/admin/v1/transactions/{id}': {
    operationId: 'adminGetTransaction',
    description: 'One transaction with its line ids (for send and cancel).',
    codes: ['TRX_NOT_FOUND'],
    response: { message: 'OK', data: orderDetail },
  },
  'POST /api/admin/v1/transactions/{id}/items/{line}/send': {
    operationId: 'adminSendManualLine',
    description:
      'Delivers a manual line with its license text; the order completes when its last line is delivered (`order.item.sent`, `order.completed`).',
    codes: ['TRX_NOT_FOUND', 'LINE_NOT_FOUND', 'INVALID_STATE'],
    request: { product_license: 'Account: demo@example.com / password: s3cret' },
    response: { message: 'OK', data: { id: orderDetail.id, status: 'completed', line_id: line.id } },
  },
  'POST /api/admin/v1/transactions/{id}/cancel': {
    operationId: 'adminCancelTransaction',
    description: 'Cancels what is not delivered yet and refunds it, each line exactly once; lines at a provider wait for its final answer.',
    codes: ['TRX_NOT_FOUND', 'INVALID_STATE'],
    request: { reason: 'out of stock at the supplier; refunded' },
    response: { message: 'OK', data: { id: orderDetail.id, status: 'canceled', refunded_lines: 1 } },
  },
}
