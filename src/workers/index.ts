import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '../context.js'
import { deliverAlerts, evaluateAlerts } from '../modules/alerts/index.js'
import { readDueBalances } from '../modules/fulfilment/index.js'
import { sweepExpiredLocks } from '../modules/locks/index.js'
import { supplierSyncBatch } from '../modules/suppliers/index.js'
import { expireTopups } from '../modules/topups/index.js'
import { pruneOldRecords } from './retention.js'
import type { Worker } from './runner.js'

/** The interval workers, wired to the context; the webhook worker (NOTIFY-woken) starts beside them in main.ts. */
export function allWorkers(ctx: AppContext): Worker[] {
  return [
    { name: 'lock-sweeper', intervalMs: 5_000, runOnce: () => sweepExpiredLocks(ctx.db) },
    { name: 'topup-sweeper', intervalMs: 30_000, runOnce: () => expireTopups(ctx.db) },
    // Placed smm orders' status, in batches per panel; h2h re-checks are the upstream worker's, as they fall due.
    {
      name: 'smm-status-poller',
      intervalMs: Math.min(ctx.config.providerPollSeconds, 5) * 1_000,
      runOnce: () => ctx.fulfilment.smmPoller.runOnce(),
    },
    // Suppliers' price lists (rate-limited upstream); a batch reads one provider at a time, each under its claim.
    { name: 'supplier-sync', intervalMs: ctx.config.supplierSyncMinutes * 60_000, runOnce: supplierSyncBatch(ctx) },
    // What is left at each provider (docs/design.md §11e): routing holds requests back from a source that cannot pay for them.
    {
      name: 'supplier-balances',
      intervalMs: Math.min(ctx.config.supplierBalanceMinutes * 60_000, 60_000),
      runOnce: () =>
        readDueBalances(ctx.db, ctx.vault, {
          everyMs: ctx.config.supplierBalanceMinutes * 60_000,
          timeoutMs: ctx.config.providerTimeoutMs,
        }),
    },
    // Operator alerts (docs/design.md §11e): conditions read and reconciled; their deliveries sent and retried.
    {
      name: 'alert-evaluator',
      intervalMs: ctx.config.alertEvaluateSeconds * 1_000,
      runOnce: () => evaluateAlerts(alertEvaluateDeps(ctx)),
    },
    { name: 'alert-deliveries', intervalMs: 5_000, runOnce: () => deliverAlerts(alertDeliveryDeps(ctx)) },
    { name: 'retention', intervalMs: 3_600_000, runOnce: pruneOldRecords(ctx) },
  ]
}

/** Queued upstream requests and h2h re-checks, many in flight, woken at commit (fulfilment/upstream-worker.ts). */
export function startUpstreamWorker(ctx: AppContext, log: FastifyBaseLogger) {
  return ctx.fulfilment.upstream.start(ctx.listen, log)
}

/** What an alert evaluation reads with: the database and the thresholds the configuration sets. */
export const alertEvaluateDeps = (ctx: AppContext) => ({
  db: ctx.db,
  settings: { failurePercent: ctx.config.alertFailurePercent, complaintSlaHours: ctx.config.complaintSlaHours },
})

/** What the alert delivery worker sends with: SMTP, Telegram's Bot API, the webhooks' transport and signing. */
export const alertDeliveryDeps = (ctx: AppContext) => ({
  db: ctx.db,
  vault: ctx.vault,
  clock: ctx.clock,
  fetch: ctx.fetch,
  transport: ctx.webhookTransport,
  config: {
    smtpUrl: ctx.config.smtpUrl,
    smtpFrom: ctx.config.smtpFrom,
    telegramBotToken: ctx.config.telegramBotToken,
    telegramApiUrl: ctx.config.telegramApiUrl,
    timeoutMs: ctx.config.webhookTimeoutMs,
    userAgent: ctx.config.webhookUserAgent,
  },
})
