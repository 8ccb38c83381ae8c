import type { Database } from '../../db/database.js'
import type { Dispatch } from '../../db/schema.js'
import type { ProviderAccount } from '../../providers/upstream-http.js'
import type { Vault } from '../../vault.js'
import { claimRunningSmm } from './claims.queries.js'
import type { RecordFinal } from './answers.js'
import type { LineDispatcher } from './dispatch.js'
import { eachLimited, loadProviderAccount } from './provider-accounts.js'
import { checkSmm, type CallSettings } from './upstream-calls.service.js'
import { createUpstreamWorker, type UpstreamWorkerOptions } from './upstream-worker.js'

export type FulfilmentSettings = {
  providerPollSeconds: number
  providerTimeoutMs: number
  dbStatementTimeoutMs: number
  /** UPSTREAM_CONCURRENCY and UPSTREAM_PER_HOST: the upstream worker's bounds. */
  upstream: UpstreamWorkerOptions
  /** How a provider's final answer is recorded: checkout's recordFinal (settlement and failover). */
  recordFinal: RecordFinal
}

// smm status batches asked at once (each up to 100 orders of one panel).
const STATUS_BATCHES_AT_ONCE = 8

/**
 * The upstream side of fulfilment. One send path: the upstream worker (upstream-worker.ts) sends
 * queued requests and re-checks pending h2h ones (the same ref_id) as they fall due; a worker
 * process starts it, tests call its runOnce. `smmPoller` asks placed smm orders' status every
 * PROVIDER_POLL_SECONDS in batches of ≤ 100 per panel.
 */
export function createFulfilment(db: Database, vault: Vault, settings: FulfilmentSettings) {
  const call: CallSettings = {
    timeoutMs: settings.providerTimeoutMs,
    pollSeconds: settings.providerPollSeconds,
    record: settings.recordFinal,
  }
  // An smm add longer unanswered than a call and its recording can take was cut off by a crash.
  const leaseSeconds = Math.ceil((settings.providerTimeoutMs + 2 * settings.dbStatementTimeoutMs) / 1000) + 1

  /** An upstream worker; with other bounds than the configured ones for tests. */
  const upstreamWorker = (options: UpstreamWorkerOptions = settings.upstream) =>
    createUpstreamWorker({ db, vault, call, leaseSeconds }, options)
  const upstream = upstreamWorker()

  /** Placed smm orders' status, asked in batches of ≤ 100 per panel. */
  const checkRunningSmm = async () => {
    const smm = await claimRunningSmm(db, { limit: 1000, pollSeconds: call.pollSeconds })
    const accounts = new Map<string, ProviderAccount | undefined>()
    for (const code of new Set(smm.map((r) => r.provider))) accounts.set(code, await loadProviderAccount(db, vault, code))
    const batches: Dispatch[][] = []
    for (const code of accounts.keys()) {
      const mine = smm.filter((d) => d.provider === code)
      for (let i = 0; i < mine.length; i += 100) batches.push(mine.slice(i, i + 100))
    }
    await eachLimited(batches, STATUS_BATCHES_AT_ONCE, (batch) => checkSmm(db, accounts.get(batch[0].provider), batch, call))
    return smm.length
  }

  /** The LineDispatcher seam: one line's due requests sent now by the worker's send path. */
  const lineDispatcher = (process: 'h2h' | 'smm'): LineDispatcher => ({
    process,
    async dispatch(orderLineId: number) {
      await upstream.runOnce({ lineId: orderLineId })
    },
  })

  return {
    upstream,
    upstreamWorker,
    smmPoller: { runOnce: checkRunningSmm },
    lineDispatchers: [lineDispatcher('h2h'), lineDispatcher('smm')],
  }
}
export type Fulfilment = ReturnType<typeof createFulfilment>
