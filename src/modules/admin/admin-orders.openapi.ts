import { operations } from '../../http/operation.js'
import { cursorMeta, orderDetail, orderRows } from './admin.examples.js'

const line = orderDetail.items[0]

/** OpenAPI metadata of the operator's transaction routes (each carried by its route’s schema). */
export const ADMIN_ORDER_DOCS = operations({
  adminListTransactions: {
    codes: ['VALIDATION_ERROR'],
    description: 'Transactions of every account, newest first, paged; filter by status or account.',
    response: { message: 'OK', data: orderRows, meta: cursorMeta(2) },
  },
  adminGetTransaction: {
    description: 'One transaction with its line ids (for send and cancel).',
    codes: ['VALIDATION_ERROR', 'TRX_NOT_FOUND'],
    response: { message: 'OK', data: orderDetail },
  },
  adminSendManualLine: {
    description:
      'Delivers a manual line with its license text; the order completes when its last line is delivered (`order.item.sent`, `order.completed`).',
    codes: ['VALIDATION_ERROR', 'TRX_NOT_FOUND', 'LINE_NOT_FOUND', 'INVALID_STATE'],
    request: { product_license: 'Account: demo@example.com / password: s3cret' },
    response: { message: 'OK', data: { id: orderDetail.id, status: 'completed', line_id: line.id } },
  },
  adminCancelTransaction: {
    description: 'Cancels what is not delivered yet and refunds it, each line exactly once; lines at a provider wait for its final answer.',
    codes: ['VALIDATION_ERROR', 'TRX_NOT_FOUND', 'INVALID_STATE'],
    request: { reason: 'out of stock at the supplier; refunded' },
    response: { message: 'OK', data: { id: orderDetail.id, status: 'canceled', refunded_lines: 1 } },
  },
})
