import type { Database } from '../../db/database.js'
import type { Dispatch } from '../../db/schema.js'
import type { ProviderAccount } from '../../providers/upstream-http.js'
import type { Vault } from '../../vault.js'
import { claimPendingH2h, claimQueued, claimRunningSmm, sendingToReview } from './claims.js'
import type { LineDispatcher } from './dispatch.js'
import { eachLimited, loadProviderAccount } from './provider-accounts.js'
import { checkSmm, sendH2h, sendSmm, type CallSettings } from './upstream-calls.js'
import { createUpstreamWorker, type UpstreamWorkerOptions } from './upstream-worker.js'
import type { Listen } from '../../db/notifications.js'

export type FulfilmentSettings = { providerPollSeconds: number; providerTimeoutMs: number; dbStatementTimeoutMs: number }

// Calls in flight per worker batch: enough to overlap slow upstreams, few enough for a small pool.
const PARALLEL_CALLS = 8

/**
 * The upstream side of fulfilment: `dispatcher` sends queued requests, `poller` re-checks pending
 * ones every PROVIDER_POLL_SECONDS (h2h by re-sending the same ref_id, smm by `status` in batches
 * of ≤ 100). Both are workers (runOnce does one batch) and tests call them directly.
 */
export function createFulfilment(db: Database, vault: Vault, settings: FulfilmentSettings) {
  const call: CallSettings = { timeoutMs: settings.providerTimeoutMs, pollSeconds: settings.providerPollSeconds }
  // An smm add longer unanswered than a call and its recording can take was cut off by a crash.
  const leaseSeconds = Math.ceil((settings.providerTimeoutMs + 2 * settings.dbStatementTimeoutMs) / 1000) + 1

  const accountsFor = async (rows: Dispatch[]) => {
    const accounts = new Map<string, ProviderAccount | undefined>()
    for (const code of new Set(rows.map((r) => r.provider))) accounts.set(code, await loadProviderAccount(db, vault, code))
    return accounts
  }
  const send = async (rows: Dispatch[]) => {
    const accounts = await accountsFor(rows)
    await eachLimited(rows, PARALLEL_CALLS, async (d) => {
      if (d.kind === 'digiflazz') await sendH2h(db, accounts.get(d.provider), d, call)
      else await sendSmm(db, accounts.get(d.provider), d, call)
    })
  }

  const dispatcher = {
    async runOnce(): Promise<number> {
      await sendingToReview(db)
      const rows = await claimQueued(db, { limit: 50, pollSeconds: call.pollSeconds, leaseSeconds })
      await send(rows)
      return rows.length
    },
  }

  /** Placed smm orders' status, asked in batches of ≤ 100 per panel. */
  const checkRunningSmm = async () => {
    const smm = await claimRunningSmm(db, { limit: 1000, pollSeconds: call.pollSeconds })
    const accounts = await accountsFor(smm)
    const batches: Dispatch[][] = []
    for (const code of accounts.keys()) {
      const mine = smm.filter((d) => d.provider === code)
      for (let i = 0; i < mine.length; i += 100) batches.push(mine.slice(i, i + 100))
    }
    await eachLimited(batches, PARALLEL_CALLS, (batch) => checkSmm(db, accounts.get(batch[0].provider), batch, call))
    return smm.length
  }

  const poller = {
    async runOnce(): Promise<number> {
      const h2h = (await claimPendingH2h(db, { limit: 200, pollSeconds: call.pollSeconds, leaseSeconds })).filter(
        (d) => d.status === 'pending',
      )
      await send(h2h)
      return h2h.length + (await checkRunningSmm())
    },
  }

  /** What a worker process runs: smm status checks on an interval (h2h re-checks are the upstream worker's). */
  const smmPoller = { runOnce: checkRunningSmm }

  /** Queued requests and h2h re-checks, many in flight, woken at commit (upstream-worker.ts). */
  const upstreamWorker = (listen: Listen, options: UpstreamWorkerOptions) =>
    createUpstreamWorker({ db, vault, listen, call, leaseSeconds }, options)

  /** The LineDispatcher seam: sends one line's queued requests now (the worker would, within a second). */
  const lineDispatcher = (process: 'h2h' | 'smm'): LineDispatcher => ({
    process,
    async dispatch(orderLineId: number) {
      await send(await claimQueued(db, { limit: 1000, pollSeconds: call.pollSeconds, leaseSeconds, lineId: orderLineId }))
    },
  })

  return { dispatcher, poller, smmPoller, upstreamWorker, lineDispatchers: [lineDispatcher('h2h'), lineDispatcher('smm')] }
}
export type Fulfilment = ReturnType<typeof createFulfilment>
