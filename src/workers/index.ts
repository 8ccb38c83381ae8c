import type { AppContext } from '../context.js'
import { sweepExpiredLocks } from '../modules/locks/locks.service.js'
import { expireTopups } from '../modules/topups/topups.service.js'
import type { Worker } from './runner.js'

/** The interval workers, wired to the context; the webhook worker (NOTIFY-woken) starts beside them in main.ts. */
export function allWorkers(ctx: AppContext): Worker[] {
  return [
    { name: 'lock-sweeper', intervalMs: 5_000, runOnce: () => sweepExpiredLocks(ctx.db) },
    { name: 'topup-sweeper', intervalMs: 30_000, runOnce: () => expireTopups(ctx.db) },
    // Queued upstream requests go out within a second; pending ones are due by their own next_attempt_at.
    { name: 'upstream-dispatcher', intervalMs: 1_000, runOnce: () => ctx.fulfilment.dispatcher.runOnce() },
    {
      name: 'upstream-poller',
      intervalMs: Math.min(ctx.config.providerPollSeconds, 5) * 1_000,
      runOnce: () => ctx.fulfilment.poller.runOnce(),
    },
  ]
}
