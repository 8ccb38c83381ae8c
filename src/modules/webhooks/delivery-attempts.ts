import type { Database } from '../../db/database.js'
import type { Vault } from '../../vault.js'
import { loadOrderDetails, orderDetailFromJson, type OrderDetailView } from '../orders/index.js'
import type { AttemptRecord, ClaimedDelivery } from './delivery.queries.js'
import { complaintMessage, orderMessage, testMessage, type WebhookMessage } from './payload.js'
import { nextAttemptAt, type Clock } from './schedule.js'
import { signRequest } from './signing.js'
import { failureText } from './attempt-failure.js'
import type { Transport } from './transport.js'

/**
 * `production`: APP_ENV=production, where an attempt's error names only the kind of failure (attempt-failure.ts);
 * `userAgent`: WEBHOOK_USER_AGENT (else the service's own).
 */
export type DeliveryDeps = { db: Database; vault: Vault; transport: Transport; clock: Clock; production: boolean; userAgent?: string }

/** One attempt as recorded and shown: any 2xx is delivered; everything else carries an error. */
export type AttemptOutcome = { statusCode: number | null; durationMs: number; error: string | null }

/** Where and with which secret an account's callbacks go; absent when webhooks are off. */
export type Receiver = { url: string; secret: string }

/** Decrypted secrets by their stored ciphertext: a busy worker meets the same few accounts in every batch. */
export type SecretCache = Map<string, string>
const SECRETS_CACHED = 10_000

/** The receivers of a claimed batch's accounts, secrets decrypted once each; only accounts with webhooks on. */
export function receiversOf(vault: Vault, claimed: ClaimedDelivery[], secrets: SecretCache = new Map()): Map<number, Receiver> {
  const receivers = new Map<number, Receiver>()
  for (const d of claimed) {
    if (receivers.has(d.account_id) || !d.webhook_enabled || !d.callback_url || !d.secret_enc) continue
    let secret = secrets.get(d.secret_enc)
    if (secret === undefined) {
      if (secrets.size >= SECRETS_CACHED) secrets.clear()
      secret = vault.decrypt(d.secret_enc)
      secrets.set(d.secret_enc, secret)
    }
    receivers.set(d.account_id, { url: d.callback_url, secret })
  }
  return receivers
}

/**
 * The messages of a claimed batch (by delivery id), each from the payload its delivery stores: the
 * same body on every attempt (only the signatures' times move). Deliveries relayed before payloads
 * were stored go out with their order's current state, read here in one statement.
 */
export async function prepareMessages(deps: DeliveryDeps, batch: ClaimedDelivery[], at: Date): Promise<Map<number, WebhookMessage>> {
  // None unstored (every delivery since migration 0220): loadOrderDetails answers an empty map without a statement.
  const unstored = [...new Set(batch.flatMap((d) => (d.payload || d.order_id === null ? [] : [d.order_id])))]
  const current = await loadOrderDetails(deps.db, deps.vault, unstored)
  const messages = new Map<number, WebhookMessage>()
  for (const delivery of batch) {
    const message = messageOf(deps.vault, delivery, current, at)
    if (message) messages.set(delivery.id, message)
  }
  return messages
}

function messageOf(vault: Vault, d: ClaimedDelivery, current: Map<number, OrderDetailView>, at: Date): WebhookMessage | undefined {
  const stored = d.payload
  if (stored?.complaint) return complaintMessage(d.webhook_id, new Date(stored.timestamp), stored.complaint)
  if (stored?.order)
    return orderMessage(d.event, d.webhook_id, new Date(stored.timestamp), orderDetailFromJson(stored.order, vault), d.order_line_id)
  if (stored?.test) return testMessage(d.webhook_id, new Date(stored.timestamp), stored.test)
  if (d.event === 'webhook.test' || d.order_id === null) return testMessage(d.webhook_id, at)
  const detail = current.get(d.order_id)
  return detail && orderMessage(d.event, d.webhook_id, at, detail, d.order_line_id)
}

/** Signs and sends one message; no transaction or row lock is held meanwhile. */
export async function send(
  deps: DeliveryDeps,
  receiver: Receiver,
  message: WebhookMessage,
  webhookId: string,
  at: Date,
): Promise<AttemptOutcome> {
  const request = signRequest({ ...message, webhookId, at, secret: receiver.secret, userAgent: deps.userAgent })
  const { statusCode, durationMs, failure } = await deps.transport.post(receiver.url, request)
  return { statusCode, durationMs, error: failureText(failure, deps.production) }
}

/**
 * One attempt of a claimed delivery and what it leads to: delivered on a 2xx; otherwise retrying
 * on the schedule, or failed when the round is over. An account that switched webhooks off
 * meanwhile fails the delivery at once (redeliverable later). Past `sendBy` the claim is too old
 * to send safely before its lease ends: nothing is sent, and the delivery is taken up again when
 * the lease lapses.
 */
export async function attemptDelivery(
  deps: DeliveryDeps,
  delivery: ClaimedDelivery,
  receiver: Receiver | undefined,
  message: WebhookMessage | undefined,
  at: Date,
  sendBy?: Date,
): Promise<AttemptRecord | undefined> {
  if (sendBy && deps.clock.now() > sendBy) return undefined
  const outcome: AttemptOutcome = !receiver
    ? { statusCode: null, durationMs: 0, error: 'webhooks are switched off for this account' }
    : !message
      ? { statusCode: null, durationMs: 0, error: 'order not found' }
      : await send(deps, receiver, message, delivery.webhook_id, at)
  const delivered = outcome.error === null
  const failures = delivered ? delivery.failures : delivery.failures + 1
  const next = delivered || !message ? null : nextAttemptAt(failures, deps.clock.now())
  return {
    deliveryId: delivery.id,
    claim: delivery.claims,
    attemptedAt: at,
    ...outcome,
    status: delivered ? 'delivered' : next ? 'retrying' : 'failed',
    failures,
    nextAttemptAt: next,
  }
}
