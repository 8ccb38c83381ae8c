import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '../../context.js'
import { createAttemptRecorder } from './attempt-recorder.js'
import { attemptDelivery, prepareMessages, receiversOf, type DeliveryDeps, type Receiver, type SecretCache } from './delivery-attempts.js'
import {
  claimDue,
  earliestDue,
  reclaimOutbox,
  relayOutbox,
  releaseClaims,
  type Capacity,
  type ClaimedDelivery,
} from './delivery.queries.js'
import type { WebhookMessage } from './payload.js'
import { createWakeLoop } from '../../workers/wake-loop.js'

export type WebhookWorkerOptions = {
  /** Attempts in flight in this process, all receivers together. */
  concurrency?: number
  /** Attempts in flight in this process for one account's receiver. */
  perReceiver?: number
  /** Attempts in flight in this process to one receiver host (host[:port]), whatever the accounts. */
  perHost?: number
  /** The safety net when no NOTIFY arrives. */
  pollMs?: number
  /** Outbox rows relayed between two reclaims of their space (VACUUM). */
  reclaimEvery?: number
  /** On stop, how long attempts in flight may still finish before their claims are handed back. */
  stopGraceMs?: number
}

export type WebhookWorker = {
  /** Relays the outbox and runs every due attempt to its end; what tests call. */
  runOnce(): Promise<{ relayed: number; attempted: number }>
  /** Runs until stop(): woken by NOTIFY on `outbox`, on time for each retry, with a slow poll. */
  start(log: FastifyBaseLogger): Promise<{ stop(): Promise<void> }>
}

// Attempts in flight per process, per account and per receiver host: a receiver over the internet
// takes 50–500 ms; one that hangs holds only its own account's slots, and a host that many
// accounts share (a shop platform) at most half of them. A slot is held from the claim to the
// answer, so on busy cores even a receiver that answers at once keeps ~100 in flight at 1,700
// events/s: a host bound of 128 sent most fresh events to the costlier claim (measured: 256).
export const CONCURRENCY = 512
export const PER_RECEIVER = 8
export const PER_HOST = CONCURRENCY / 2
const RELAY_BATCH = 500
// Claimed batches whose messages are being built at once (their reads overlap the next claim).
const PREPARING = 4
// A claim outlives the attempt's deadline by this much before another process may take it up.
const LEASE_MARGIN_MS = 10_000
const CLAIM_AT_LEAST_EVERY_MS = 250
// Relayed outbox rows after which their space is reclaimed: a few index pages for the relay to walk.
export const RECLAIM_EVERY = 2_000
// Receivers answer in 50–500 ms: one still silent this long after a stop is left to another worker.
export const STOP_GRACE_MS = 2_000

export function createWebhookWorker(ctx: AppContext, options: WebhookWorkerOptions = {}): WebhookWorker {
  const clock = ctx.clock
  const concurrency = options.concurrency ?? CONCURRENCY
  const perReceiver = options.perReceiver ?? PER_RECEIVER
  const perHost = options.perHost ?? PER_HOST
  const pollMs = options.pollMs ?? 2_000
  const reclaimEvery = options.reclaimEvery ?? RECLAIM_EVERY
  const stopGraceMs = options.stopGraceMs ?? STOP_GRACE_MS
  const deps: DeliveryDeps = {
    db: ctx.webhookDb,
    vault: ctx.vault,
    transport: ctx.webhookTransport,
    clock,
    production: ctx.config.appEnv === 'production',
    userAgent: ctx.config.webhookUserAgent,
  }
  const recorder = createAttemptRecorder(ctx.webhookDb)
  const secrets: SecretCache = new Map()
  const inFlight = new Map<number, number>()
  const inFlightByHost = new Map<string, number>()
  let inFlightTotal = 0
  // Claimed and not yet answered (id → claim number): what a stop hands back; and what it did.
  const unanswered = new Map<number, number>()
  const handedBack = new Set<number>()
  let stopping = false
  const sends = new Set<Promise<unknown>>()
  const preparing = new Set<Promise<unknown>>()
  let log: Pick<FastifyBaseLogger, 'error' | 'warn'> = { error: () => {}, warn: () => {} }
  let onSettled = () => {}
  let onRescheduled = () => {}

  let lastClaimAt = 0
  let unreclaimed = 0
  let reclaiming: Promise<void> | undefined

  /** Vacuums the outbox once enough rows were relayed, beside the passes (one at a time). */
  const reclaim = (relayed: number) => {
    unreclaimed += relayed
    if (unreclaimed < reclaimEvery || reclaiming) return
    unreclaimed = 0
    reclaiming = reclaimOutbox(ctx.webhookDb)
      .catch((err: unknown) => log.error({ err }, 'outbox not reclaimed'))
      .finally(() => (reclaiming = undefined))
  }

  // A freed slot matters only where the lack of one held deliveries back: the account's, the host's or all.
  const settled = (delivery: ClaimedDelivery) => {
    const { account_id: account, receiver_host: host } = delivery
    const held =
      inFlightTotal >= concurrency || inFlight.get(account)! >= perReceiver || (host !== null && inFlightByHost.get(host)! >= perHost)
    inFlightTotal--
    unanswered.delete(delivery.id)
    count(inFlight, account, -1)
    if (host !== null) count(inFlightByHost, host, -1)
    if (held) onSettled()
  }

  /**
   * Sends each prepared attempt and records it as soon as it is answered. The slot frees when the
   * answer is in: until its record lands the delivery's lease keeps it from being claimed again.
   */
  const send = (claimed: ClaimedDelivery[], receivers: Map<number, Receiver>, messages: Map<number, WebhookMessage>, at: Date) => {
    const sendBy = new Date(at.getTime() + LEASE_MARGIN_MS / 2)
    for (const delivery of claimed) {
      const attempt = attemptDelivery(deps, delivery, receivers.get(delivery.account_id), messages.get(delivery.id), at, sendBy)
        .finally(() => settled(delivery))
        .then(async (record) => {
          if (!record || handedBack.has(delivery.id)) return
          await recorder.record(record)
          // The loop may be asleep until later than this retry: let it look again.
          if (record.nextAttemptAt) onRescheduled()
        })
        .catch((err: unknown) => log.error({ err, delivery: delivery.id }, 'webhook attempt not recorded'))
        .finally(() => sends.delete(attempt))
      sends.add(attempt)
    }
  }

  /** Builds a claimed batch's messages and starts its sends; unsent on failure (the leases lapse). */
  const prepare = async (claimed: ClaimedDelivery[], now: Date) => {
    try {
      const receivers = receiversOf(ctx.vault, claimed, secrets)
      const messages = await prepareMessages(
        deps,
        claimed.filter((d) => receivers.has(d.account_id)),
        now,
      )
      // Built after a stop began: left claimed, for the stop to hand back.
      if (!stopping) send(claimed, receivers, messages, now)
    } catch (err) {
      log.error({ err }, 'webhook messages not built')
      claimed.forEach(settled)
    }
  }

  // More was due than the bounds let this process take: the next pass claims before it relays,
  // oldest first, so fresh events never take the slots that older deliveries wait for (that kept
  // some waiting for seconds under load).
  let behind = false

  const capacity = (): Capacity => {
    const now = clock.now()
    return {
      now,
      leaseUntil: new Date(now.getTime() + ctx.config.webhookTimeoutMs + LEASE_MARGIN_MS),
      free: concurrency - inFlightTotal,
      perReceiver,
      busy: inFlight,
      perHost,
      hostsBusy: inFlightByHost,
    }
  }
  const take = (claimed: ClaimedDelivery[]) => {
    inFlightTotal += claimed.length
    for (const d of claimed) {
      unanswered.set(d.id, d.claims)
      count(inFlight, d.account_id, 1)
      if (d.receiver_host !== null) count(inFlightByHost, d.receiver_host, 1)
    }
    return claimed
  }

  /**
   * Relays what the outbox holds (fresh deliveries that fit come back claimed), claims what else
   * is due when asked to or when the relay left some over (first, when the last claim left some
   * waiting), and hands the batch to `prepare`.
   * Claims run one at a time (per-account quotas stay exact); up to PREPARING batches are built
   * meanwhile, and past that the next pass waits, so batches grow with the load.
   */
  const pass = async (relay = true, claim = true) => {
    while (preparing.size >= PREPARING) await Promise.race(preparing)
    const claimed: ClaimedDelivery[] = []
    let relayed = 0
    let claimedDue = false
    const claimOldest = async () => {
      claimedDue = true
      lastClaimAt = clock.now().getTime()
      const room = capacity()
      const due = await claimDue(ctx.webhookDb, room)
      claimed.push(...take(due.claimed))
      behind = room.free === 0 || due.wanted > due.claimed.length
    }
    try {
      if (behind) await claimOldest()
      for (let n = relay ? RELAY_BATCH : 0; n === RELAY_BATCH;) {
        const r = await relayOutbox(ctx.webhookDb, RELAY_BATCH, capacity())
        claimed.push(...take(r.claimed))
        behind ||= r.created > r.claimed.length
        relayed += n = r.relayed
      }
      // Also now and then while NOTIFY keeps the worker busy: retries fall due meanwhile.
      if (!claimedDue && (claim || behind || clock.now().getTime() - lastClaimAt >= CLAIM_AT_LEAST_EVERY_MS)) await claimOldest()
    } finally {
      reclaim(relayed)
      // What was claimed goes out even if a later statement of the pass failed.
      if (claimed.length > 0) {
        const batch = prepare(claimed, clock.now()).finally(() => preparing.delete(batch))
        preparing.add(batch)
      }
    }
    return { relayed, claimed: claimed.length }
  }

  /** Every batch built and every attempt recorded. */
  const drained = async () => {
    await Promise.all(preparing)
    await Promise.all(sends)
    await reclaiming
  }

  return {
    async runOnce() {
      const total = { relayed: 0, attempted: 0 }
      for (;;) {
        const { relayed, claimed } = await pass()
        await drained()
        total.relayed += relayed
        total.attempted += claimed
        if (relayed === 0 && claimed === 0) return total
      }
    },

    async start(logger) {
      log = logger
      const wakes = createWakeLoop({
        pass,
        untilDue: async () => {
          const due = await earliestDue(ctx.webhookDb)
          return due ? Math.max(0, due.getTime() - clock.now().getTime()) : null
        },
        pollMs,
        onError: (err) => log.error({ err }, 'webhook pass failed'),
      })
      onSettled = () => wakes.wake(false, true)
      onRescheduled = () => wakes.wake(false, false)
      // A redelivery rings with 'due': something to claim, not only to relay.
      const stopListening = await ctx.listen(
        'outbox',
        (payload) => wakes.wake(true, payload === 'due'),
        () => wakes.wake(true, true),
      )
      wakes.wake(true, true)
      return {
        /** No new claim; attempts in flight get a short grace, then what is unanswered is handed back. */
        async stop() {
          stopping = true
          const stopped = wakes.stop()
          await stopListening()
          await stopped
          let graceOver: NodeJS.Timeout | undefined
          await Promise.race([drained(), new Promise((resolve) => (graceOver = setTimeout(resolve, stopGraceMs)))])
          clearTimeout(graceOver)
          const left = new Map(unanswered)
          left.forEach((_claim, id) => handedBack.add(id))
          await releaseClaims(ctx.webhookDb, left).catch((err: unknown) =>
            log.error({ err }, 'claims not handed back: they wait for their lease'),
          )
          if (left.size > 0) log.warn({ deliveries: left.size }, 'webhook attempts unanswered at stop: handed back to other workers')
        },
      }
    },
  }
}

/** Moves a key's count by `by`; a count back at zero leaves the map (it is sent to every claim). */
function count<K>(counts: Map<K, number>, key: K, by: number) {
  const n = (counts.get(key) ?? 0) + by
  if (n === 0) counts.delete(key)
  else counts.set(key, n)
}
