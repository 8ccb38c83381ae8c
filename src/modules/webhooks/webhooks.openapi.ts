import { operations } from '../../http/operation.js'

const settings = {
  callback_url: 'https://shop.example/hooks/reseller',
  webhook_enabled: true,
  has_secret: true,
  secret_created_at: '2026-11-22T10:00:00.000Z',
}
const delivery = {
  id: 88,
  event: 'order.completed',
  webhook_id: 'evt_3f1c0e9a5b7d4c2e8f6a1b0c9d8e7f6a',
  status: 'delivered',
  order_id: 1042,
  ref_id: 'shop-order-881',
  invoice: 'INV20261122K7Q2M9XA',
  attempt_count: 1,
  next_attempt_at: null,
  created_at: '2026-11-22T10:15:00.020Z',
  delivered_at: '2026-11-22T10:15:00.045Z',
  attempts: [{ attempted_at: '2026-11-22T10:15:00.030Z', status_code: 200, duration_ms: 15, error: null }],
}

/** OpenAPI metadata of the reseller webhook routes (each carried by its route’s schema). */
export const WEBHOOK_DOCS = operations({
  getWebhookSettings: {
    description: 'Your callback URL and whether webhooks are on; the secret is never shown again (`has_secret`).',
    returns: 'The settings',
    response: { message: 'OK', data: settings },
  },
  updateWebhookSettings: {
    codes: ['INVALID_JSON', 'BAD_REQUEST', 'VALIDATION_ERROR'],
    description:
      'Sets `callback_url` (https; http only outside production) and/or `webhook_enabled`. Switching webhooks off fails the pending deliveries at once.',
    returns: 'The settings',
    request: { callback_url: 'https://shop.example/hooks/reseller', webhook_enabled: true },
    response: { message: 'OK', data: settings },
  },
  rotateWebhookSecret: {
    description:
      'A new signing secret (`whsec_…`), shown only in this answer; the previous one stops signing at once. It keys both signatures (see `GET /api/v1/webhook/docs`).',
    returns: 'The new secret',
    response: { status: true, message: 'OK', data: { webhook_secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } },
  },
  sendTestWebhook: {
    codes: ['VALIDATION_ERROR'],
    description: 'Sends one `webhook.test` event to your callback URL now, signed like every delivery, and answers how it went.',
    returns: 'The outcome of the attempt',
    response: {
      message: 'OK',
      data: {
        delivered: true,
        status_code: 200,
        duration_ms: 42,
        error: null,
        delivery_id: 87,
        webhook_id: 'evt_0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e',
      },
    },
  },
  getWebhookDocs: {
    description:
      'Everything a receiver needs as JSON: events, payloads, headers, both signature schemes with Node, PHP and Python verification code, the retry schedule.',
    returns: 'The webhook documentation',
    response: {
      message: 'OK',
      data: { events: ['order.paid', 'order.completed', 'order.item.sent', 'order.canceled', 'complaint.updated', 'webhook.test'] },
    },
  },
  listWebhookDeliveries: {
    codes: ['VALIDATION_ERROR'],
    description:
      'Your webhook deliveries, newest first, each with every attempt (status code, duration, error). The total is counted up to 10,000; further back, follow `meta.next_cursor`.',
    returns: 'A page of deliveries',
    response: {
      message: 'OK',
      data: [delivery],
      meta: { page: 1, per_page: 20, total: 1, last_page: 1, total_capped: false, next_cursor: null },
    },
  },
  retryWebhookDelivery: {
    description:
      'Sends a delivery again: its schedule starts over, with the same body under the same `webhook-id` (the event as it was built once), so your receiver can deduplicate.',
    returns: 'The delivery, queued',
    codes: ['VALIDATION_ERROR', 'DELIVERY_NOT_FOUND'],
    response: { message: 'OK', data: { ...delivery, status: 'pending', next_attempt_at: '2026-11-22T10:20:00.000Z', delivered_at: null } },
  },
})
