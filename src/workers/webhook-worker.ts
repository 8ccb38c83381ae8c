import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '../context.js'
import { listen } from '../db/notifications.js'
import { createAttemptRecorder } from '../modules/webhooks/attempt-recorder.js'
import { attemptDelivery, prepareMessages, receiversOf, type DeliveryDeps, type Receiver } from '../modules/webhooks/delivery.js'
import { claimDue, earliestDue, relayOutbox, type ClaimedDelivery } from '../modules/webhooks/delivery.queries.js'
import type { WebhookMessage } from '../modules/webhooks/payload.js'
import { systemClock, type Clock } from '../modules/webhooks/schedule.js'

export type WebhookWorkerOptions = {
  clock?: Clock
  /** Attempts in flight in this process, all receivers together. */
  concurrency?: number
  /** Attempts in flight in this process for one account's receiver. */
  perReceiver?: number
  /** The safety net when no NOTIFY arrives. */
  pollMs?: number
}

export type WebhookWorker = {
  /** Relays the outbox and runs every due attempt to its end; what tests call. */
  runOnce(): Promise<{ relayed: number; attempted: number }>
  /** Runs until stop(): woken by NOTIFY on `outbox`, on time for each retry, with a slow poll. */
  start(log: FastifyBaseLogger): Promise<{ stop(): Promise<void> }>
}

const RELAY_BATCH = 500
// A claim outlives the attempt's deadline by this much before another process may take it up.
const LEASE_MARGIN_MS = 10_000
// Passes shortly after activity catch events whose commit raced the pass the NOTIFY started.
const FOLLOW_UPS_MS = [20, 200]

export function createWebhookWorker(ctx: AppContext, options: WebhookWorkerOptions = {}): WebhookWorker {
  const clock = options.clock ?? systemClock
  const concurrency = options.concurrency ?? 64
  const perReceiver = options.perReceiver ?? 4
  const pollMs = options.pollMs ?? 2_000
  const deps: DeliveryDeps = { db: ctx.db, vault: ctx.vault, transport: ctx.webhookTransport, clock }
  const recorder = createAttemptRecorder(ctx.db)
  const inFlight = new Map<number, number>()
  let inFlightTotal = 0
  const sends = new Set<Promise<unknown>>()
  let log: Pick<FastifyBaseLogger, 'error'> = { error: () => {} }
  let onSettled = () => {}

  const settled = (account: number) => {
    inFlightTotal--
    const left = inFlight.get(account)! - 1
    if (left === 0) inFlight.delete(account)
    else inFlight.set(account, left)
    onSettled()
  }

  /** Sends each prepared attempt and records it as soon as it is answered. */
  const send = (claimed: ClaimedDelivery[], receivers: Map<number, Receiver>, messages: Map<number, WebhookMessage>, at: Date) => {
    const sendBy = new Date(at.getTime() + LEASE_MARGIN_MS / 2)
    for (const delivery of claimed) {
      const attempt = attemptDelivery(deps, delivery, receivers.get(delivery.account_id), messages.get(delivery.id), at, sendBy)
        .then((record) => record && recorder.record(record))
        .catch((err: unknown) => log.error({ err, delivery: delivery.id }, 'webhook attempt not recorded'))
        .finally(() => (sends.delete(attempt), settled(delivery.account_id)))
      sends.add(attempt)
    }
  }

  /**
   * Relays what the outbox holds, claims what is due, builds those messages and starts sending.
   * Passes run one at a time and only the sends overlap them, so a pass never waits for pool
   * connections behind its own previous batch, and batches grow with the load.
   */
  const pass = async (relay = true) => {
    let relayed = 0
    for (let n = relay ? RELAY_BATCH : 0; n === RELAY_BATCH; relayed += n) n = await relayOutbox(ctx.db, clock.now(), RELAY_BATCH)
    const now = clock.now()
    const claimed = await claimDue(ctx.db, {
      now,
      leaseUntil: new Date(now.getTime() + ctx.config.webhookTimeoutMs + LEASE_MARGIN_MS),
      free: concurrency - inFlightTotal,
      perReceiver,
      busy: inFlight,
    })
    if (claimed.length === 0) return { relayed, claimed: 0 }
    inFlightTotal += claimed.length
    for (const d of claimed) inFlight.set(d.account_id, (inFlight.get(d.account_id) ?? 0) + 1)
    try {
      const receivers = receiversOf(ctx.vault, claimed)
      const messages = await prepareMessages(deps, claimed.filter((d) => receivers.has(d.account_id)), now)
      send(claimed, receivers, messages, now)
    } catch (err) {
      // Unsent: the leases lapse and the deliveries are claimed again.
      claimed.forEach((d) => settled(d.account_id))
      throw err
    }
    return { relayed, claimed: claimed.length }
  }

  return {
    async runOnce() {
      const total = { relayed: 0, attempted: 0 }
      for (;;) {
        const { relayed, claimed } = await pass()
        await Promise.all(sends)
        total.relayed += relayed
        total.attempted += claimed
        if (relayed === 0 && claimed === 0) return total
      }
    },

    async start(logger) {
      log = logger
      let stopping = false
      let running: Promise<void> | undefined
      let again = false
      // Only NOTIFY and timers can mean new outbox events; a finished attempt only frees a slot.
      let relayWanted = true
      let timer: NodeJS.Timeout | undefined
      let followUp = 0
      const wake = (relay = true) => {
        if (stopping) return
        relayWanted ||= relay
        if (running) return void (again = true)
        clearTimeout(timer)
        running = loop().finally(() => (running = undefined))
      }
      const loop = async () => {
        try {
          while (!stopping) {
            again = false
            const relay = relayWanted
            relayWanted = false
            const r = await pass(relay)
            if (r.relayed > 0 || r.claimed > 0) followUp = 0
            if (again) continue
            const delay = await nextWake()
            if (again) continue
            if (!stopping) timer = setTimeout(() => wake(), delay)
            return
          }
        } catch (err) {
          log.error({ err }, 'webhook pass failed')
          relayWanted = true
          if (!stopping) timer = setTimeout(() => wake(), pollMs)
        }
      }
      // Until the next retry falls due, the next follow-up, or the poll: whichever comes first.
      const nextWake = async () => {
        const due = await earliestDue(ctx.db)
        const untilDue = due ? Math.max(0, due.getTime() - clock.now().getTime()) : pollMs
        const delay = Math.min(untilDue, pollMs, FOLLOW_UPS_MS[followUp] ?? pollMs)
        if (followUp < FOLLOW_UPS_MS.length) followUp++
        return delay
      }
      onSettled = () => wake(false)
      const stopListening = await listen(ctx.database, 'outbox', () => wake(), () => wake())
      wake()
      return {
        async stop() {
          stopping = true
          clearTimeout(timer)
          await stopListening()
          await running
          await Promise.all(sends)
        },
      }
    },
  }
}
