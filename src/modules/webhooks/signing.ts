import crypto from 'node:crypto'
import { DEFAULT_WEBHOOK_USER_AGENT } from '../../config.js'

const PREFIX = 'whsec_'

/** `whsec_` + 32 random bytes in standard base64: the Standard Webhooks secret format. */
export function newWebhookSecret(): string {
  return PREFIX + crypto.randomBytes(32).toString('base64')
}

/** The unique id of one event's delivery, the same on every attempt. */
export function newWebhookId(): string {
  return `evt_${crypto.randomUUID().replaceAll('-', '')}`
}

/**
 * X-Signature, the scheme existing receivers verify: lower-case hex SHA-256 of
 * `ref_id:invoice:S:secret` (docs/design.md §8).
 */
export function legacySignature(refId: string, invoice: string, signedStatus: string, secret: string): string {
  return crypto.createHash('sha256').update(`${refId}:${invoice}:${signedStatus}:${secret}`).digest('hex')
}

/**
 * `webhook-signature` of Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`,
 * keyed with the base64-decoded part of the secret after `whsec_`.
 */
export function standardSignature(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64')
  const mac = crypto.createHmac('sha256', key).update(`${webhookId}.${timestampSeconds}.${body}`).digest('base64')
  return `v1,${mac}`
}

export type SignedRequest = { body: string; headers: Record<string, string> }

/** The exact bytes to send and every header that covers them. */
export function signRequest(input: {
  event: string
  refId: string
  invoice: string
  signedStatus: string
  webhookId: string
  at: Date
  body: string
  secret: string
  /** WEBHOOK_USER_AGENT. */
  userAgent?: string
}): SignedRequest {
  const seconds = Math.floor(input.at.getTime() / 1000)
  return {
    body: input.body,
    headers: {
      'content-type': 'application/json',
      'user-agent': input.userAgent ?? DEFAULT_WEBHOOK_USER_AGENT,
      'x-event': input.event,
      'x-timestamp': input.at.toISOString(),
      'x-signature': legacySignature(input.refId, input.invoice, input.signedStatus, input.secret),
      'webhook-id': input.webhookId,
      'webhook-timestamp': String(seconds),
      'webhook-signature': standardSignature(input.secret, input.webhookId, seconds, input.body),
    },
  }
}
