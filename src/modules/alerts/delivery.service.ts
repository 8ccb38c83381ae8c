import type { Database } from '../../db/database.js'
import type { Vault } from '../../vault.js'
import { nextAttemptAt, type Clock, type Transport } from '../webhooks/index.js'
import { alertWebhookSecret, claimDueAlertDeliveries, recordAlertAttempt, type ClaimedAlertDelivery } from './deliveries.queries.js'
import { sendEmail, sendTelegram, sendWebhook, type SenderConfig } from './senders.js'

export type AlertDeliveryDeps = {
  db: Database
  vault: Vault
  clock: Clock
  fetch: typeof fetch
  /** The reseller webhooks' transport: keep-alive, no redirects, the SSRF guard in production. */
  transport: Transport
  config: SenderConfig
}

// Deliveries taken per batch; each batch's sends run together.
const BATCH = 20

/**
 * One batch (docs/design.md §11e): due deliveries claimed and leased, sent with no row locked,
 * each attempt recorded; a failure is retried on the reseller webhooks' schedule, then `failed`.
 * Answers how many were attempted.
 */
export async function deliverAlerts(deps: AlertDeliveryDeps): Promise<number> {
  const now = deps.clock.now()
  // The lease outlasts the slowest send; a process that died mid-send leaves its deliveries due after it.
  const leaseUntil = new Date(now.getTime() + deps.config.timeoutMs + 30_000)
  const claimed = await claimDueAlertDeliveries(deps.db, { now, leaseUntil, limit: BATCH })
  if (claimed.length === 0) return 0
  const sealed = claimed.some((d) => d.channel === 'webhook') ? await alertWebhookSecret(deps.db) : null
  const secret = sealed ? deps.vault.decrypt(sealed) : null
  await Promise.all(claimed.map((d) => attempt(deps, d, secret)))
  return claimed.length
}

async function attempt(deps: AlertDeliveryDeps, d: ClaimedAlertDelivery, secret: string | null) {
  const started = deps.clock.now()
  const t0 = performance.now()
  const error = await send(deps, d, secret, started).catch((e: unknown) => `${(e as Error).message}`.slice(0, 300))
  const attempt = { attempted_at: started.toISOString(), ok: error === null, error, duration_ms: Math.round(performance.now() - t0) }
  if (error === null) return recordAlertAttempt(deps.db, d.id, { attempt, status: 'delivered', failures: d.failures, nextAttemptAt: null })
  const failures = d.failures + 1
  const next = nextAttemptAt(failures, deps.clock.now())
  await recordAlertAttempt(deps.db, d.id, { attempt, status: next ? 'retrying' : 'failed', failures, nextAttemptAt: next })
}

function send(deps: AlertDeliveryDeps, d: ClaimedAlertDelivery, secret: string | null, at: Date): Promise<string | null> {
  switch (d.channel) {
    case 'email':
      return sendEmail(deps.config, d)
    case 'telegram':
      return sendTelegram(deps.config, deps.fetch, d)
    case 'webhook':
      return sendWebhook(deps.config, deps.transport, secret, d, at)
  }
}
