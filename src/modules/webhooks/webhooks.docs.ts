import { ATTEMPTS_PER_ROUND, RETRY_DELAYS_MS } from './schedule.js'
import { MAX_PAYLOAD_BYTES } from './payload.js'
import { USER_AGENT } from './signing.js'
import { NODE, PHP, PYTHON } from './verification-code.js'

const orderData = {
  event_id: 'evt_3f1c0e9a5b7d4c2e8f6a1b0c9d8e7f6a',
  id: 1042,
  invoice: 'INV20261122K7Q2M9XA',
  ref_id: 'shop-order-881',
  status: 'completed',
  price: 25000,
  fees: 0,
  amount: 25000,
  payment_code: 'saldo',
  payment_method: 'saldo',
  created_at: '2026-11-22T10:15:00.000Z',
  updated_at: '2026-11-22T10:15:00.012Z',
  items: [
    {
      variant_id: 7,
      variant_name: 'Voucher 25K',
      product_name: 'Game Voucher',
      quantity: 1,
      price: 25000,
      subtotal: 25000,
      note: null,
      target: null,
      order_process: 'auto',
      status: 'delivered',
      product_license: 'ABCD-EFGH-IJKL',
      licenses: [{ product_license: 'ABCD-EFGH-IJKL', note: null }],
    },
  ],
  h2h_results: [],
  smm_results: [],
}

/** GET /api/v1/webhook/docs: everything a receiver needs, as JSON. */
export function webhookDocs(timeoutMs: number) {
  const delays = [0, ...RETRY_DELAYS_MS].map((ms, i) => ({
    attempt: i + 1,
    delay_seconds: ms / 1000,
    after: i === 0 ? 'the event' : 'the previous failure',
  }))
  return {
    setup: [
      'POST /api/v1/webhook/secret (the secret is shown once)',
      'PUT /api/v1/webhook {callback_url, webhook_enabled: true}',
      'POST /api/v1/webhook/test',
    ],
    callback_url:
      'https:// always; http:// only for localhost outside production. No spaces or control characters (percent-encode them), no backslashes, no user:pass@. In production private, loopback, link-local and metadata addresses are refused after DNS resolution, and redirects are never followed.',
    events: [
      { event: 'order.paid', when: 'a purchase is paid (balance debited)' },
      { event: 'order.completed', when: 'every line is delivered (or delivered in part, the rest refunded)' },
      { event: 'order.canceled', when: 'nothing could be delivered; the whole amount is back on the balance' },
      { event: 'order.item.sent', when: 'an operator delivered one manual line; data.item is that line' },
      {
        event: 'webhook.test',
        when: 'POST /api/v1/webhook/test; placeholders only (ref_id TEST-<time>, invoice TEST-<random>, status test)',
      },
    ],
    body: {
      shape: '{ event, timestamp, data }; data is the order in its current state, as GET /api/v1/trx/{ref_id} shows it, plus event_id',
      notes: [
        'Every payload carries the full current state: an order.paid delivered after completion already says completed.',
        'No ordering between events. Deduplicate by data.event_id (= the webhook-id header): a delivery can arrive more than once.',
        `A payload stays under ${MAX_PAYLOAD_BYTES / 1024} KB; a larger order is sent without license texts (and, if still too large, without lines) and with data.truncated = true: read it with GET /api/v1/trx/{ref_id}.`,
        'Answer any 2xx quickly; the response body is never read.',
      ],
      examples: {
        'order.completed': { event: 'order.completed', timestamp: '2026-11-22T10:15:00.020Z', data: orderData },
        'order.item.sent': {
          event: 'order.item.sent',
          timestamp: '2026-11-22T11:00:00.000Z',
          data: { ...orderData, status: 'paid', item: { ...orderData.items[0], order_process: 'manual', status: 'sent' } },
        },
        'webhook.test': {
          event: 'webhook.test',
          timestamp: '2026-11-22T10:00:00.000Z',
          data: {
            ...orderData,
            id: 0,
            ref_id: 'TEST-1795340400000',
            invoice: 'TEST-9F3A1C07B2',
            status: 'test',
            price: 0,
            amount: 0,
            items: [],
          },
        },
      },
    },
    headers: [
      { name: 'Content-Type', value: 'application/json' },
      { name: 'User-Agent', value: USER_AGENT },
      { name: 'X-Event', value: "the event, always equal to the body's event" },
      { name: 'X-Timestamp', value: 'ISO 8601 time of this attempt' },
      { name: 'X-Signature', value: 'lower-case hex SHA-256 of ref_id:invoice:S:secret' },
      { name: 'webhook-id', value: "the event's id, the same on every attempt (Standard Webhooks)" },
      { name: 'webhook-timestamp', value: 'Unix seconds of this attempt' },
      { name: 'webhook-signature', value: 'v1,<base64 HMAC-SHA256>' },
    ],
    signatures: {
      x_signature: {
        header: 'X-Signature',
        algorithm: 'SHA-256, lower-case hex',
        signed_content: 'data.ref_id + ":" + data.invoice + ":" + S + ":" + secret',
        S: 'data.status; "test" for webhook.test; "item.sent" for order.item.sent',
        note: 'does not cover the rest of the body or the time: prefer the Standard Webhooks signature where you can',
      },
      standard_webhooks: {
        spec: 'https://www.standardwebhooks.com/',
        headers: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
        algorithm: 'HMAC-SHA256, base64, prefixed "v1,"; several space-separated signatures may appear',
        signed_content: 'webhook-id + "." + webhook-timestamp + "." + the raw body bytes',
        key: 'the secret without its "whsec_" prefix, base64-decoded',
        replay: 'refuse a webhook-timestamp more than 5 minutes from your clock',
        libraries: 'the standardwebhooks packages (npm, PyPI, Packagist) verify it with the whsec_ secret as is',
      },
      verification_code: { node: NODE, php: PHP, python: PYTHON },
    },
    retries: {
      timeout_ms: timeoutMs,
      failure: 'a non-2xx answer, a redirect (never followed), no answer within timeout_ms, or a connection error',
      schedule: delays,
      attempts: ATTEMPTS_PER_ROUND,
      after_last: 'the delivery is failed, kept, and can be redelivered: POST /api/v1/webhook/deliveries/{id}/retry',
      log: 'GET /api/v1/webhook/deliveries lists deliveries, newest first, with every attempt (time, status code, duration, error)',
      errors:
        'in production an attempt\'s error names the kind of failure only: "address not allowed", "could not connect", "connection closed", "certificate not accepted", "timeout", "HTTP 503", "redirect (302) not followed"',
    },
  }
}
