import { ATTEMPTS_PER_ROUND, RETRY_DELAYS_MS } from './schedule.js'
import { MAX_PAYLOAD_BYTES } from './payload.js'
import { NODE, PHP, PYTHON } from './verification-code.js'

const autoLine = {
  order_item_id: '5120',
  variant_id: 7,
  variant_name: 'Voucher 25K',
  product_id: 3,
  product_name: 'Game Voucher',
  quantity: 1,
  qty: 1,
  price: 25000,
  subtotal: 25000,
  note: null,
  buyer_note: null,
  target: null,
  order_process: 'auto',
  status: 'completed',
  product_license: 'ABCD-EFGH-IJKL',
  seller_note: null,
  description: null,
  licenses: [{ product_license: 'ABCD-EFGH-IJKL', note: null }],
}
const h2hLine = {
  order_item_id: '5119',
  variant_id: 123,
  variant_name: 'Diamond 100',
  product_id: 45,
  product_name: 'Mobile Legends',
  quantity: 1,
  qty: 1,
  price: 20000,
  subtotal: 20000,
  note: '123456789|1234',
  buyer_note: '123456789|1234',
  target: '123456789|1234',
  order_process: 'h2h',
  status: 'completed',
  product_license: null,
  seller_note: null,
  description: null,
  h2h_results: { sn: 'SN123456789', dispatch_status: 'completed', dispatch_message: 'Transaksi sukses', ref_id: 'INV20261122K7Q2M9XA-2-1' },
}
const orderData = {
  event_id: 'evt_3f1c0e9a5b7d4c2e8f6a1b0c9d8e7f6a',
  id: 1042,
  invoice: 'INV20261122K7Q2M9XA',
  ref_id: 'shop-order-881',
  status: 'completed',
  price: 45000,
  fees: 0,
  amount: 45000,
  payment_code: 'saldo',
  payment_method: 'saldo',
  note: null,
  payment_link: null,
  qr_link: null,
  expired_at: null,
  created_at: '2026-11-22T10:15:00.000Z',
  updated_at: '2026-11-22T10:15:02.512Z',
  items: [autoLine, h2hLine],
  h2h_results: [
    {
      variant_id: 123,
      sn: 'SN123456789',
      dispatch_status: 'completed',
      log_message: 'Transaksi sukses',
      h2h_provider: 'digiflazz',
      provider_meta: { open_denom: false, min_qty: null, max_qty: null, step_qty: null },
    },
  ],
  smm_results: [],
}
const paidData = {
  ...orderData,
  event_id: 'evt_0b9d4e2a7c1f4a3e9d8c6b5a4f3e2d1c',
  status: 'paid',
  updated_at: '2026-11-22T10:15:00.000Z',
  items: [
    autoLine,
    { ...h2hLine, status: 'processing', h2h_results: { ...h2hLine.h2h_results, sn: '', dispatch_status: 'pending', dispatch_message: '' } },
  ],
  h2h_results: [{ ...orderData.h2h_results[0], sn: '', dispatch_status: 'pending', log_message: '' }],
}
const manualLine = {
  ...autoLine,
  order_item_id: '5121',
  variant_id: 9,
  variant_name: 'iOS 1 Month',
  product_id: 4,
  product_name: 'Apple Music',
  note: 'https://t.me/shop/4',
  buyer_note: 'https://t.me/shop/4',
  target: 'https://t.me/shop/4',
  order_process: 'manual',
  price: 3325,
  subtotal: 3325,
  product_license: 'user@email.com|password123',
  seller_note: 'renews monthly',
  licenses: [{ product_license: 'user@email.com|password123', note: 'renews monthly' }],
}
const complaintData = {
  event_id: 'evt_7a2c9e1b4d6f4e0a8b3c5d7e9f1a2b4c',
  complaint_id: 17,
  ref_id: 'shop-order-881',
  invoice: 'INV20261122K7Q2M9XA',
  order_item_id: '5120',
  reason: 'invalid_code',
  status: 'answered',
  resolution: null,
  refunded_amount: 0,
  last_message: {
    author: 'operator',
    message: 'Checking with the supplier; we will answer within a day.',
    created_at: '2026-11-23T09:30:00.000Z',
  },
  updated_at: '2026-11-23T09:30:00.000Z',
}

/** GET /api/v1/webhook/docs: everything a receiver needs, as JSON. */
export function webhookDocs(timeoutMs: number, userAgent: string) {
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
        event: 'complaint.updated',
        when: "a complaint of yours changed: opened, your message (POST /api/v1/complaints/{id}/messages), the store's reply, or its closing with a resolution; data is the complaint, not the order",
      },
      {
        event: 'webhook.test',
        when: 'POST /api/v1/webhook/test; placeholders only (ref_id TEST-<time>, invoice TEST-<random>, status test)',
      },
    ],
    body: {
      shape:
        "{ event, timestamp, data }; timestamp is the event's time; data is (except for complaint.updated) the order as of the event, as GET /api/v1/trx/{ref_id} shows it, plus event_id, payment_code, and on each item product_id and, for an h2h line, h2h_results (its latest provider request: sn, dispatch_status, dispatch_message, ref_id = the provider's reference)",
      notes: [
        "Each event's payload is built once: order.paid says paid (the order is being processed), even when it completed in the same instant; the next event carries the newer state.",
        'Every retry and redelivery of an event sends the same body under the same webhook-id; only X-Timestamp, webhook-timestamp and the signatures are per attempt.',
        "Every item carries order_item_id, the line's id as a string: name it in a complaint (POST /api/v1/trx/{ref}/complaints).",
        "complaint.updated's data is the complaint as of its change: complaint_id, ref_id, invoice, order_item_id, reason, status (open, answered, closed), resolution (refunded, resent, rejected, resolved once closed; else null), refunded_amount, last_message ({author: reseller|operator, message, created_at}, or null) and updated_at. Read the whole thread with GET /api/v1/complaints/{id}.",
        "order.item.sent adds data.transaction_status (the order's status) and data.item: the line sent, with order_item_id (the line's id, a string), licenses, status sent, sent_at, and note = the seller's delivery note (null if none; the buyer's note is in buyer_note).",
        'Every item carries buyer_note (the note sent with the line) and seller_note (the note the seller left delivering it), so no reader depends on which note it got.',
        'No ordering between events. Deduplicate by data.event_id (= the webhook-id header): a delivery can arrive more than once.',
        `A payload stays under ${MAX_PAYLOAD_BYTES / 1024} KB; a larger order is sent without license texts (and, if still too large, without lines) and with data.truncated = true: read it with GET /api/v1/trx/{ref_id}.`,
        'Answer any 2xx quickly; the response body is never read.',
      ],
      examples: {
        'order.paid': { event: 'order.paid', timestamp: '2026-11-22T10:15:00.000Z', data: paidData },
        'order.completed': { event: 'order.completed', timestamp: '2026-11-22T10:15:02.512Z', data: orderData },
        'order.item.sent': {
          event: 'order.item.sent',
          timestamp: '2026-11-22T11:00:00.000Z',
          data: {
            ...orderData,
            price: 3325,
            amount: 3325,
            status: 'paid',
            items: [{ ...manualLine, status: 'sent' }],
            h2h_results: [],
            transaction_status: 'paid',
            item: { ...manualLine, note: 'renews monthly', status: 'sent', sent_at: '2026-11-22T11:00:00.000Z' },
          },
        },
        'complaint.updated': { event: 'complaint.updated', timestamp: '2026-11-23T09:30:00.000Z', data: complaintData },
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
            h2h_results: [],
          },
        },
      },
    },
    headers: [
      { name: 'Content-Type', value: 'application/json' },
      { name: 'User-Agent', value: userAgent },
      { name: 'X-Event', value: "the event, always equal to the body's event" },
      { name: 'X-Timestamp', value: 'ISO 8601 time of this attempt' },
      { name: 'X-Signature', value: 'lower-case hex SHA-256 of ref_id:invoice:S:secret' },
      { name: 'webhook-id', value: "the event's id, the same on every attempt, with the same body (Standard Webhooks)" },
      { name: 'webhook-timestamp', value: 'Unix seconds of this attempt' },
      { name: 'webhook-signature', value: 'v1,<base64 HMAC-SHA256>' },
    ],
    signatures: {
      x_signature: {
        header: 'X-Signature',
        algorithm: 'SHA-256, lower-case hex',
        signed_content: 'data.ref_id + ":" + data.invoice + ":" + S + ":" + secret',
        S: 'data.status; "test" for webhook.test; "item.sent" for order.item.sent; "complaint" for complaint.updated',
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
