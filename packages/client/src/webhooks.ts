import crypto from 'node:crypto'
import type { operations } from './schema.js'

/** Request headers as Node (or any framework) hands them over; names are matched case-insensitively. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | Headers

export class WebhookVerificationError extends Error {}

type Transaction = operations['getTransaction']['responses'][200]['content']['application/json']['data']
/** An h2h line's latest provider request; `ref_id` is the reference the provider knows it by. */
export type WebhookLineH2hResult = { sn: string; dispatch_status: string; dispatch_message: string; ref_id: string }
/** One line of the order, as `GET /api/v1/trx/{ref}` shows it, and for an h2h line its latest request. */
export type WebhookOrderLine = Transaction['items'][number] & { h2h_results?: WebhookLineH2hResult }
/** `data` of every event: the order as of the event (as `GET /api/v1/trx/{ref}` shows it) and the event's id. */
export type WebhookOrder = Omit<Transaction, 'type' | 'total' | 'payment_url' | 'expires_at' | 'paid_at' | 'items'> & {
  items: WebhookOrderLine[]
  /** The same on every attempt (= the `webhook-id` header): deduplicate on it. */
  event_id: string
  payment_code: string
  /** The body would pass 32 KB: licenses (or lines) are left out; read the order with `GET /api/v1/trx/{ref}`. */
  truncated?: true
}
/** `data` of `complaint.updated`: the complaint as of its change (read the whole thread with `GET /api/v1/complaints/{id}`). */
export type WebhookComplaint = {
  event_id: string
  complaint_id: number
  ref_id: string
  invoice: string
  /** The line complained about, as `items[].order_item_id` shows it. */
  order_item_id: string
  reason: 'not_received' | 'wrong_item' | 'invalid_code' | 'other'
  status: 'open' | 'answered' | 'closed'
  /** Set once closed. */
  resolution: 'refunded' | 'resent' | 'rejected' | 'resolved' | null
  refunded_amount: number
  last_message: { author: 'reseller' | 'operator'; message: string; created_at: string } | null
  updated_at: string
}
type Envelope<E extends string, D> = { event: E; timestamp: string; data: D }
/**
 * What the service sends (the OpenAPI document does not describe callbacks, hence typed here); `event` tells
 * them apart. Each carries the order as of its event, built once: `order.paid` says `paid`, and every retry
 * sends the same body.
 */
export type WebhookEvent =
  | Envelope<'order.paid' | 'order.completed' | 'order.canceled', WebhookOrder>
  | Envelope<
      'order.item.sent',
      WebhookOrder & {
        /** The order's status beside the line sent. */
        transaction_status: string
        item: WebhookOrderLine & { status: 'sent'; order_item_id: string; sent_at: string }
      }
    >
  | Envelope<'complaint.updated', WebhookComplaint>
  | Envelope<'webhook.test', WebhookOrder & { status: 'test' }>

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(name) ?? undefined
  const entry = Object.entries(headers as Record<string, string | string[] | undefined>).find(([k]) => k.toLowerCase() === name)
  const value = entry?.[1]
  return Array.isArray(value) ? value[0] : value
}

function sameText(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)]
  return x.length === y.length && crypto.timingSafeEqual(x, y)
}

function parse(body: string): WebhookEvent {
  try {
    return JSON.parse(body)
  } catch {
    throw new WebhookVerificationError('the body is not JSON')
  }
}

/**
 * Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`): an HMAC-SHA256 over
 * `id.timestamp.body` keyed with the secret's base64 part after `whsec_`. Covers every byte of the body
 * and the time; a timestamp further than `toleranceSeconds` from now is refused (replays). Returns the event.
 */
export function verifyStandardWebhook(
  body: string,
  headers: WebhookHeaders,
  secret: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): WebhookEvent {
  const id = header(headers, 'webhook-id')
  const timestamp = header(headers, 'webhook-timestamp')
  const signatures = header(headers, 'webhook-signature')
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature')
  const seconds = Number(timestamp)
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000)
  if (!Number.isInteger(seconds) || Math.abs(now - seconds) > (options.toleranceSeconds ?? 300))
    throw new WebhookVerificationError('webhook-timestamp is too far from now')
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64')
  const expected = crypto.createHmac('sha256', key).update(`${id}.${seconds}.${body}`).digest('base64')
  // The header may carry several space-separated `v1,<mac>` entries (during a secret rotation).
  const valid = signatures.split(' ').some((entry) => entry.startsWith('v1,') && sameText(entry.slice(3), expected))
  if (!valid) throw new WebhookVerificationError('webhook-signature does not match')
  return parse(body)
}

/**
 * The legacy `X-Signature`: hex SHA-256 of `ref_id:invoice:S:secret`, S being `data.status`
 * (`item.sent` for `order.item.sent`, `complaint` for `complaint.updated`). It does not cover the rest of the body or the time:
 * prefer `verifyStandardWebhook`. Returns the event.
 */
export function verifyLegacySignature(body: string, headers: WebhookHeaders, secret: string): WebhookEvent {
  const given = header(headers, 'x-signature')
  if (!given) throw new WebhookVerificationError('missing X-Signature')
  const payload = parse(body)
  const data: Partial<WebhookOrder> = (payload?.data as Partial<WebhookOrder> | undefined) ?? {}
  const signedStatus =
    payload?.event === 'order.item.sent' ? 'item.sent' : payload?.event === 'complaint.updated' ? 'complaint' : data.status
  const expected = crypto.createHash('sha256').update(`${data.ref_id}:${data.invoice}:${signedStatus}:${secret}`).digest('hex')
  if (!sameText(given.toLowerCase(), expected)) throw new WebhookVerificationError('X-Signature does not match')
  return payload
}

/**
 * Verifies with Standard Webhooks. X-Signature alone is refused unless `allowLegacy` is set: it covers only
 * `ref_id:invoice:status`, so a body stripped of the Standard headers could be replayed or altered. Returns the event.
 */
export function verifyWebhook(
  body: string,
  headers: WebhookHeaders,
  secret: string,
  options: { allowLegacy?: boolean; toleranceSeconds?: number; now?: Date } = {},
): WebhookEvent {
  const standard = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].some((name) => header(headers, name))
  if (standard) return verifyStandardWebhook(body, headers, secret, options)
  if (options.allowLegacy) return verifyLegacySignature(body, headers, secret)
  throw new WebhookVerificationError(
    'no Standard Webhooks signature (webhook-id, webhook-timestamp, webhook-signature); X-Signature alone needs { allowLegacy: true }',
  )
}
