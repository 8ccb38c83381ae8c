import type { Database } from '../../db/database.js'
import type { Vault } from '../../vault.js'
import { loadOrderDetail } from '../orders/orders.queries.js'
import { recordAttempt, type ClaimedDelivery } from './delivery.queries.js'
import { orderMessage, testMessage, type WebhookMessage } from './payload.js'
import { nextAttemptAt, type Clock } from './schedule.js'
import { signRequest } from './signing.js'
import type { AttemptOutcome, Transport } from './transport.js'

export type DeliveryDeps = { db: Database; vault: Vault; transport: Transport; clock: Clock }

/** Where and with which secret an account's callbacks go; absent when webhooks are off. */
export type Receiver = { url: string; secret: string }

/** The receivers of some accounts, secrets decrypted; only accounts with webhooks on. */
export async function loadReceivers(db: Database, vault: Vault, accountIds: number[]): Promise<Map<number, Receiver>> {
  if (accountIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('webhook_settings')
    .select(['account_id', 'callback_url', 'secret_enc'])
    .where('account_id', 'in', accountIds)
    .where('webhook_enabled', '=', true)
    .execute()
  return new Map(rows.map((r) => [r.account_id, { url: r.callback_url!, secret: vault.decrypt(r.secret_enc!) }]))
}

/** The message for a delivery, built now from the order's current state. */
async function messageFor(deps: DeliveryDeps, delivery: Pick<ClaimedDelivery, 'event' | 'order_id' | 'order_line_id' | 'webhook_id'>, at: Date): Promise<WebhookMessage | undefined> {
  if (delivery.event === 'webhook.test' || delivery.order_id === null) return testMessage(delivery.webhook_id, at)
  const order = await deps.db.selectFrom('orders').selectAll().where('id', '=', delivery.order_id).executeTakeFirst()
  if (!order) return undefined
  return orderMessage(delivery.event, delivery.webhook_id, at, await loadOrderDetail(deps.db, deps.vault, order), delivery.order_line_id)
}

/** Signs and sends one message; no transaction or row lock is held meanwhile. */
export async function send(deps: DeliveryDeps, receiver: Receiver, message: WebhookMessage, webhookId: string, at: Date): Promise<AttemptOutcome> {
  const request = signRequest({ ...message, webhookId, at, secret: receiver.secret })
  return deps.transport.post(receiver.url, request)
}

/**
 * One attempt of a claimed delivery, then its record in a statement of its own: delivered on a
 * 2xx; otherwise retrying on the schedule, or failed when the round is over. An account that
 * has switched webhooks off meanwhile fails the delivery at once (redeliverable later). Past
 * `sendBy` the claim is too old to send safely before its lease ends: nothing is sent, and the
 * delivery is taken up again when the lease lapses.
 */
export async function attemptDelivery(deps: DeliveryDeps, delivery: ClaimedDelivery, receiver: Receiver | undefined, sendBy?: Date): Promise<AttemptOutcome | undefined> {
  const attemptedAt = deps.clock.now()
  const message = receiver && (await messageFor(deps, delivery, attemptedAt))
  if (sendBy && deps.clock.now() > sendBy) return undefined
  const outcome: AttemptOutcome = !receiver
    ? { statusCode: null, durationMs: 0, error: 'webhooks are switched off for this account' }
    : !message
      ? { statusCode: null, durationMs: 0, error: 'order not found' }
      : await send(deps, receiver, message, delivery.webhook_id, attemptedAt)
  const delivered = outcome.error === null
  const failures = delivered ? delivery.failures : delivery.failures + 1
  const next = delivered || !message ? null : nextAttemptAt(failures, deps.clock.now())
  await recordAttempt(deps.db, {
    deliveryId: delivery.id,
    claim: delivery.claims,
    attemptedAt,
    ...outcome,
    status: delivered ? 'delivered' : next ? 'retrying' : 'failed',
    failures,
    nextAttemptAt: next,
  })
  return outcome
}
