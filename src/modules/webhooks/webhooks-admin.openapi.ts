import type { OperationDocs } from '../../http/openapi-docs.js'

const attempt = { attempted_at: '2026-11-22T03:10:01.000Z', status_code: 502, duration_ms: 140, error: 'HTTP 502' }

/** OpenAPI metadata of the operator's webhook settings and store-wide delivery routes (webhooks-admin.routes.ts). */
export const ADMIN_WEBHOOK_DOCS: OperationDocs = {
  'PUT /api/admin/v1/resellers/{id}/webhook': {
    operationId: 'adminUpdateWebhook',
    description:
      'Changes an account’s callback URL or switches its webhooks on or off, under the reseller’s own rules (PUT /v1/webhook): https (http only for localhost outside production), and enabling needs a URL and a secret the reseller generated.',
    codes: ['ACCOUNT_NOT_FOUND'],
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
  'GET /api/admin/v1/webhook-deliveries': {
    operationId: 'adminListStoreWebhookDeliveries',
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
}
