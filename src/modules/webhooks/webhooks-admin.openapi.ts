import { operations } from '../../http/operation.js'

// A receiver that answered 503, then could not be reached: retried on the schedule of docs/design.md §8 (1 s, 2 s, 4 s, …).
const failingDelivery = {
  id: 91,
  event: 'order.completed',
  webhook_id: 'evt_3f1c0e9a5b7d4c2e8f6a1b0c9d8e7f6a',
  status: 'retrying',
  order_id: 1042,
  ref_id: 'shop-order-881',
  invoice: 'INV20261122K7Q2M9XA',
  attempt_count: 2,
  next_attempt_at: '2026-11-22T10:15:03.100Z',
  created_at: '2026-11-22T10:15:00.020Z',
  delivered_at: null,
  attempts: [
    { attempted_at: '2026-11-22T10:15:00.030Z', status_code: 503, duration_ms: 41, error: null },
    { attempted_at: '2026-11-22T10:15:01.090Z', status_code: null, duration_ms: 12, error: 'connect ECONNREFUSED 203.0.113.10:443' },
  ],
}

const attempt = { attempted_at: '2026-11-22T03:10:01.000Z', status_code: 502, duration_ms: 140, error: 'HTTP 502' }

/** OpenAPI metadata of the operator's webhook settings and store-wide delivery routes (webhooks-admin.routes.ts). */
export const ADMIN_WEBHOOK_DOCS = operations({
  adminUpdateWebhook: {
    description:
      'Changes an account’s callback URL or switches its webhooks on or off, under the reseller’s own rules (PUT /v1/webhook): https (http only for localhost outside production), and enabling needs a URL and a secret the reseller generated.',
    codes: ['VALIDATION_ERROR', 'ACCOUNT_NOT_FOUND'],
    request: { callback_url: 'https://tokomaju.example/hooks/orders', webhook_enabled: true },
    response: {
      message: 'OK',
      data: {
        callback_url: 'https://tokomaju.example/hooks/orders',
        webhook_enabled: true,
        has_secret: true,
        secret_created_at: '2026-11-20T08:00:00.000Z',
      },
    },
  },
  adminListStoreWebhookDeliveries: {
    codes: ['VALIDATION_ERROR'],
    description:
      'Deliveries of every account, newest first, with their account and every attempt; by default those failing (`failed`, or `retrying` after a failure), the overview’s queue. Redeliver one with POST /resellers/{id}/webhook-deliveries/{delivery}/retry.',
    response: {
      message: 'OK',
      data: [
        {
          id: 41,
          event: 'order.completed',
          webhook_id: 'evt_5f0c2a9e7b6d4c1f8a3e2d1c0b9a8f7e',
          status: 'retrying',
          order_id: 1207,
          ref_id: 'shop-order-881',
          invoice: 'INV20261122K7Q2M9XA',
          attempt_count: 1,
          next_attempt_at: '2026-11-22T03:10:02.000Z',
          created_at: '2026-11-22T03:10:01.000Z',
          delivered_at: null,
          attempts: [attempt],
          account_id: 7,
          account_name: 'Toko Maju',
        },
      ],
      meta: { page: 1, per_page: 20, total: 1, last_page: 1 },
    },
  },
  adminGetWebhook: {
    description: 'An account’s webhook settings.',
    codes: ['VALIDATION_ERROR', 'ACCOUNT_NOT_FOUND'],
    response: {
      message: 'OK',
      data: {
        callback_url: 'https://tokomaju.example/hooks/reseller',
        webhook_enabled: true,
        has_secret: true,
        secret_created_at: '2026-11-20T08:05:00.000Z',
      },
    },
  },
  adminListWebhookDeliveries: {
    description: 'An account’s webhook deliveries, newest first, with every attempt.',
    codes: ['VALIDATION_ERROR', 'ACCOUNT_NOT_FOUND'],
    response: {
      message: 'OK',
      data: [failingDelivery],
      meta: { page: 1, per_page: 20, total: 1, last_page: 1, total_capped: false, next_cursor: null },
    },
  },
  adminRetryWebhookDelivery: {
    description: 'Redelivers one of the account’s deliveries with the same `webhook-id`.',
    codes: ['VALIDATION_ERROR', 'ACCOUNT_NOT_FOUND', 'DELIVERY_NOT_FOUND'],
    response: {
      message: 'OK',
      // Due now, its attempts kept; the receiver sees the same webhook-id again.
      data: { ...failingDelivery, status: 'pending', next_attempt_at: '2026-11-22T10:16:00.000Z' },
    },
  },
})
