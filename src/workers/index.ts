import type { AppContext } from '../context.js'
import { sweepExpiredLocks } from '../modules/locks/locks.service.js'
import type { Worker } from './runner.js'

/** Every background worker of the service, wired to the context. */
export function allWorkers(ctx: AppContext): Worker[] {
  return [{ name: 'lock-sweeper', intervalMs: 5_000, runOnce: () => sweepExpiredLocks(ctx.db) }]
}
