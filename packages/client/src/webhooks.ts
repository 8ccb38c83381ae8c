import crypto from 'node:crypto'

/** Request headers as Node (or any framework) hands them over; names are matched case-insensitively. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | Headers

export class WebhookVerificationError extends Error {}

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

function parse(body: string): any {
  try {
    return JSON.parse(body)
  } catch {
    throw new WebhookVerificationError('the body is not JSON')
  }
}

/**
 * Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`): an HMAC-SHA256 over
 * `id.timestamp.body` keyed with the secret's base64 part after `whsec_`. Covers every byte of the body
 * and the time; a timestamp further than `toleranceSeconds` from now is refused (replays). Returns the payload.
 */
export function verifyStandardWebhook(
  body: string,
  headers: WebhookHeaders,
  secret: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): any {
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
 * (`item.sent` for `order.item.sent`). It does not cover the rest of the body or the time:
 * prefer `verifyStandardWebhook`. Returns the payload.
 */
export function verifyLegacySignature(body: string, headers: WebhookHeaders, secret: string): any {
  const given = header(headers, 'x-signature')
  if (!given) throw new WebhookVerificationError('missing X-Signature')
  const payload = parse(body)
  const data = payload?.data ?? {}
  const signedStatus = payload?.event === 'order.item.sent' ? 'item.sent' : data.status
  const expected = crypto.createHash('sha256').update(`${data.ref_id}:${data.invoice}:${signedStatus}:${secret}`).digest('hex')
  if (!sameText(given.toLowerCase(), expected)) throw new WebhookVerificationError('X-Signature does not match')
  return payload
}

/** Verifies with Standard Webhooks when its headers are present, else with X-Signature. Returns the payload. */
export function verifyWebhook(body: string, headers: WebhookHeaders, secret: string): any {
  return header(headers, 'webhook-signature') ? verifyStandardWebhook(body, headers, secret) : verifyLegacySignature(body, headers, secret)
}
