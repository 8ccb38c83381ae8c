import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../db/database.js'
import type { Listen } from '../../db/notifications.js'
import type { Dispatch } from '../../db/schema.js'
import type { ProviderAccount } from '../../providers/upstream-http.js'
import type { Vault } from '../../vault.js'
import { createWakeLoop } from '../../workers/wake-loop.js'
import { claimDue, earliestDispatchDue, handBackUnsent, sendingToReview } from './claims.queries.js'
import { loadProviderAccount } from './provider-accounts.js'
import { sendH2h, sendSmm, type CallSettings } from './upstream-calls.service.js'

export type UpstreamWorkerOptions = {
  /** Requests in flight in this process, all providers together (UPSTREAM_CONCURRENCY). */
  concurrency: number
  /** Requests in flight in this process to one provider host (UPSTREAM_PER_HOST). */
  perHost: number
  /** The safety net when no NOTIFY arrives. */
  pollMs?: number
}

type Provider = { code: string; host: string; account: (ProviderAccount & { active: boolean }) | undefined }

// Providers and their decrypted keys are read again this often: an operator's change is seen within it.
const PROVIDERS_FOR_MS = 1_000
// smm adds whose answer was never recorded past their lease are looked for at most this often.
const REVIEW_SWEEP_MS = 1_000
// A stopping worker waits this long for its calls' answers; one still out is left to its lease
// (an h2h request is re-checked with its ref_id, an smm add goes to review), never sent twice.
// What it claimed and never sent it hands back at once (handBackUnsent).
export const STOP_GRACE_MS = 2_000

const hostOf = (baseUrl: string) => {
  try {
    return new URL(baseUrl).host.toLowerCase()
  } catch {
    return baseUrl
  }
}

/**
 * Sends h2h and smm requests upstream as the webhook worker delivers: woken at commit (a purchase
 * with upstream lines rings NOTIFY dispatch, checkout/purchase.sql), each request out as soon as a slot is free, at most
 * `concurrency` in flight and `perHost` to one provider host; no batch waits for its slowest
 * call. Pending h2h requests are re-checked as they fall due, never while their last send is out
 * (the claim moves them past the call). smm status checks stay with the poller (batched per panel).
 */
export function createUpstreamWorker(
  deps: { db: Database; vault: Vault; call: CallSettings; leaseSeconds: number },
  options: UpstreamWorkerOptions,
) {
  const { db, call } = deps
  const pollMs = options.pollMs ?? 1_000
  const inFlight = new Set<Promise<void>>()
  const busyByHost = new Map<string, number>()
  let providers: { at: number; list: Promise<Provider[]> } | undefined
  let lastReviewSweep = 0
  // The last pass left due requests unclaimed for want of a slot: a freed one should take them.
  let saturated = false
  // The last pass found no free slot at any host: only a freed slot can start a send.
  let everyHostFull = false
  let onSlotFreed = () => {}
  let stopping = false
  let log: Pick<FastifyBaseLogger, 'error' | 'warn'> = { error: () => {}, warn: () => {} }

  const providerList = (fresh = false) => {
    if (fresh || !providers || Date.now() - providers.at > PROVIDERS_FOR_MS) {
      const list = (async () => {
        const codes = await db.selectFrom('providers').select(['code', 'base_url']).execute()
        return Promise.all(
          codes.map(async (p) => ({ code: p.code, host: hostOf(p.base_url), account: await loadProviderAccount(db, deps.vault, p.code) })),
        )
      })()
      providers = { at: Date.now(), list }
      // A failed read is not kept: the next pass asks again.
      list.catch(() => (providers = undefined))
    }
    return providers.list
  }

  const send = (provider: Provider, d: Dispatch) => {
    busyByHost.set(provider.host, (busyByHost.get(provider.host) ?? 0) + 1)
    const work = (d.kind === 'digiflazz' ? sendH2h(db, provider.account, d, call).then(() => {}) : sendSmm(db, provider.account, d, call))
      .catch((err: unknown) => log.error({ err, dispatch: d.id }, 'upstream request failed to record: re-checked when due'))
      .finally(() => {
        inFlight.delete(work)
        busyByHost.set(provider.host, busyByHost.get(provider.host)! - 1)
        onSlotFreed()
      })
    inFlight.add(work)
  }

  /**
   * One pass: claims what is due, host by host, as far as free slots go, and sends it (of one line
   * only with `lineId`). A claim that commits after a stop began is handed back, not sent. A pass
   * run by hand (`byHand`) sweeps for review and reads the providers anew.
   */
  const pass = async (o: { byHand?: boolean; lineId?: number } = {}) => {
    if (o.byHand || Date.now() - lastReviewSweep >= REVIEW_SWEEP_MS) {
      lastReviewSweep = Date.now()
      await sendingToReview(db)
    }
    const byHost = new Map<string, Provider[]>()
    for (const p of await providerList(o.byHand)) byHost.set(p.host, [...(byHost.get(p.host) ?? []), p])
    let claimed = 0
    saturated = false
    everyHostFull = byHost.size > 0
    for (const [host, group] of byHost) {
      if (stopping) break
      const room = Math.min(options.perHost - (busyByHost.get(host) ?? 0), options.concurrency - inFlight.size)
      if (room <= 0) {
        saturated = true
        continue
      }
      everyHostFull = false
      const rows = await claimDue(db, {
        providers: group.map((p) => p.code),
        limit: room,
        ...call,
        leaseSeconds: deps.leaseSeconds,
        lineId: o.lineId,
      })
      if (stopping) {
        const back = await handBackUnsent(db, rows)
        if (back > 0) log.warn({ dispatches: back }, 'upstream requests claimed at stop: handed back unsent to other workers')
        break
      }
      // A request past the provider's ref_id memory went to review in the claim: never sent again.
      for (const d of rows.filter((r) => r.status !== 'review'))
        send(
          group.find((p) => p.code === d.provider)!,
          d,
        )
      claimed += rows.length
      saturated ||= rows.length === room
    }
    return { relayed: 0, claimed }
  }

  /** Every request sent and its answer recorded. */
  const drained = async () => {
    while (inFlight.size > 0) await Promise.all(inFlight)
  }

  return {
    /**
     * Claims and sends everything due (of one line with `lineId`), and waits for the answers, until
     * nothing is due: the worker's send path run by hand (tests, the LineDispatcher seam).
     */
    async runOnce(o: { lineId?: number } = {}): Promise<number> {
      let total = 0
      for (;;) {
        const { claimed } = await pass({ byHand: true, lineId: o.lineId })
        await drained()
        total += claimed
        if (claimed === 0) return total
      }
    },

    /** Runs until stop(): woken by NOTIFY `dispatch` at commit, when the next request falls due, and by a slow poll. */
    async start(listen: Listen, logger: Pick<FastifyBaseLogger, 'error' | 'warn'>) {
      log = logger
      stopping = false
      const wakes = createWakeLoop({
        pass: () => pass(),
        untilDue: async () => {
          // Every slot taken: the next freed one wakes a pass (onSlotFreed), not a due time.
          if (everyHostFull) return null
          const due = await earliestDispatchDue(db)
          return due ? Math.max(0, due.getTime() - Date.now()) : null
        },
        pollMs,
        onError: (err) => log.error({ err }, 'upstream pass failed'),
      })
      // A freed slot matters only while requests wait for one.
      onSlotFreed = () => saturated && wakes.wake(false, true)
      const stopListening = await listen(
        'dispatch',
        () => wakes.wake(true, true),
        () => wakes.wake(true, true),
      )
      wakes.wake(true, true)
      return {
        /** No new claim (one committing meanwhile is handed back); answers in flight get a short grace. */
        async stop() {
          stopping = true
          const stopped = wakes.stop()
          await stopListening()
          await stopped
          await Promise.race([drained(), new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())])
        },
      }
    },
  }
}
export type UpstreamWorker = ReturnType<typeof createUpstreamWorker>
