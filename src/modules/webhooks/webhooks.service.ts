import type { AppContext } from '../../context.js'
import { inTransaction, type Database } from '../../db/database.js'
import { AppError, invalidField } from '../../errors.js'
import type { Vault } from '../../vault.js'
import { send } from './delivery-attempts.js'
import { newTestPlaceholders, testMessage } from './payload.js'
import { callbackUrlProblem } from './receiver-address.js'
import { systemClock, type Clock } from './schedule.js'
import { newWebhookId, newWebhookSecret } from './signing.js'
import type { DeliveryStatus } from '../../db/schema.js'
import type { PageWindow } from '../../db/keyset-paging.js'
import { getAccount } from '../accounts/index.js'
import {
  findSettings,
  insertTestDelivery,
  listDeliveries,
  loadDeliveries,
  lockSettings,
  receiverOf,
  requeueDelivery,
  setSecret,
  setSettings,
} from './webhooks.queries.js'
import type { SettingsBody, WebhookSettings } from './webhooks.schemas.js'

/** GET /v1/webhook: the caller's settings, never the secret. */
export async function settingsOf(db: Database, accountId: number): Promise<WebhookSettings> {
  return findSettings(db, accountId)
}

/** GET /v1/webhook/deliveries: the caller's deliveries, newest first, each with every attempt. */
export async function deliveriesOf(db: Database, accountId: number, q: { status?: DeliveryStatus; window: PageWindow }) {
  return listDeliveries(db, { accountId, ...q })
}

/** PUT /v1/webhook: either field or both; enabling needs a URL and a generated secret. */
export async function updateSettings(db: Database, production: boolean, accountId: number, body: SettingsBody): Promise<WebhookSettings> {
  if (body.callback_url === undefined && body.webhook_enabled === undefined) {
    const sentence = 'give callback_url, webhook_enabled or both'
    throw new AppError('VALIDATION_ERROR', { fieldErrors: { callback_url: [sentence], webhook_enabled: [sentence] } })
  }
  // Not trimmed: a URL with whitespace anywhere is refused whole rather than quietly rewritten.
  const url = body.callback_url === undefined ? undefined : body.callback_url || null
  const problem = url ? callbackUrlProblem(url, production) : undefined
  if (problem) throw invalidField('callback_url', problem)
  await inTransaction(db, async (trx) => {
    const current = await lockSettings(trx, accountId)
    const next = {
      callback_url: url === undefined ? current.callback_url : url,
      webhook_enabled: body.webhook_enabled ?? current.webhook_enabled,
    }
    if (next.webhook_enabled && !next.callback_url)
      throw invalidField(body.webhook_enabled ? 'webhook_enabled' : 'callback_url', 'enabling webhooks needs a callback_url')
    if (next.webhook_enabled && !current.secret_enc)
      throw invalidField('webhook_enabled', 'generate a secret first (POST /api/v1/webhook/secret)')
    await setSettings(trx, accountId, next)
  })
  return findSettings(db, accountId)
}

/** POST /v1/webhook/secret: a new secret, stored encrypted, shown only in this answer. */
export async function generateSecret(db: Database, vault: Vault, accountId: number): Promise<string> {
  const secret = newWebhookSecret()
  await inTransaction(db, async (trx) => {
    await lockSettings(trx, accountId)
    await setSecret(trx, accountId, vault.encrypt(secret))
  })
  return secret
}

/**
 * POST /v1/webhook/test: one webhook.test now (webhooks need not be enabled yet), answered with
 * its outcome and recorded as a delivery after the call, with no transaction open during it.
 */
export async function sendTest(
  db: Database,
  deps: Pick<AppContext, 'vault' | 'webhookTransport' | 'clock'> & { production: boolean; userAgent?: string },
  accountId: number,
) {
  const settings = await receiverOf(db, accountId)
  if (!settings?.callback_url) throw invalidField('callback_url', 'set a callback_url first (PUT /api/v1/webhook)')
  if (!settings.secret_enc) throw invalidField('webhook_secret', 'generate a secret first (POST /api/v1/webhook/secret)')
  const webhookId = newWebhookId()
  const at = deps.clock.now()
  const receiver = { url: settings.callback_url, secret: deps.vault.decrypt(settings.secret_enc) }
  // Stored with the delivery: a redelivery sends the same body (docs/design.md §8).
  const test = newTestPlaceholders(at)
  const outcome = await send(
    { db, vault: deps.vault, transport: deps.webhookTransport, clock: deps.clock, production: deps.production, userAgent: deps.userAgent },
    receiver,
    testMessage(webhookId, at, test),
    webhookId,
    at,
  )
  const delivered = outcome.error === null
  const attempt = { attempted_at: at.toISOString(), status_code: outcome.statusCode, duration_ms: outcome.durationMs, error: outcome.error }
  const deliveryId = await insertTestDelivery(db, {
    accountId,
    webhookId,
    delivered,
    at,
    attempt,
    payload: { timestamp: at.toISOString(), test },
  })
  return {
    delivered,
    status_code: outcome.statusCode,
    duration_ms: outcome.durationMs,
    error: outcome.error,
    delivery_id: deliveryId,
    webhook_id: webhookId,
  }
}

/** Redelivery of one of the account's deliveries, due now by the clock the worker goes by; another account's is not found. */
export async function redeliver(db: Database, clock: Clock, accountId: number, deliveryId: number) {
  const found = await inTransaction(db, (trx) => requeueDelivery(trx, accountId, deliveryId, clock.now()))
  if (!found) throw new AppError('DELIVERY_NOT_FOUND')
  const [delivery] = await loadDeliveries(db, [deliveryId])
  return delivery
}

/** The operator's view of an account's webhook settings; an unknown account is ACCOUNT_NOT_FOUND. */
export async function accountWebhook(db: Database, accountId: number): Promise<WebhookSettings> {
  await getAccount(db, accountId)
  return findSettings(db, accountId)
}

/** An account's delivery log for the operator, newest first, every attempt. */
export async function accountDeliveries(db: Database, accountId: number, q: { status?: DeliveryStatus; window: PageWindow }) {
  await getAccount(db, accountId)
  return listDeliveries(db, { accountId, ...q })
}

/** Operator redelivery: the account must exist, the delivery must be the account's. */
export async function redeliverForAccount(db: Database, accountId: number, deliveryId: number, clock: Clock = systemClock) {
  await getAccount(db, accountId)
  return redeliver(db, clock, accountId, deliveryId)
}
