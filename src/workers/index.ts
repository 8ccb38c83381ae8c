import type { AppContext } from '../context.js'
import { sweepExpiredLocks } from '../modules/locks/locks.service.js'
import type { Worker } from './runner.js'

/** The interval workers, wired to the context; the webhook worker (NOTIFY-woken) starts beside them in main.ts. */
export function allWorkers(ctx: AppContext): Worker[] {
  return [{ name: 'lock-sweeper', intervalMs: 5_000, runOnce: () => sweepExpiredLocks(ctx.db) }]
}
