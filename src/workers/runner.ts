import type { FastifyBaseLogger } from 'fastify'
import { lostStatementHint } from '../db/database.js'

/** A background job: runOnce does one batch and is what tests call directly. */
export type Worker = { name: string; intervalMs: number; runOnce(): Promise<unknown> }

/** Runs each worker in its own loop until stop(), which waits for the batch in progress. */
export function startWorkers(workers: Worker[], log: FastifyBaseLogger): { stop(): Promise<void> } {
  let stopping = false
  // Behind a pooler that drops named statements every worker fails alike: what to change, said once.
  const hintLostStatements = lostStatementHint()
  const failed = (err: unknown, worker: Worker) => {
    log.error({ err, worker: worker.name }, 'worker batch failed')
    hintLostStatements(err, log)
  }
  const timers = new Set<NodeJS.Timeout>()
  const running = new Set<Promise<unknown>>()
  const loop = (worker: Worker) => {
    if (stopping) return
    const run = worker
      .runOnce()
      .catch((err: unknown) => failed(err, worker))
      .finally(() => {
        running.delete(run)
        if (stopping) return
        const timer = setTimeout(() => (timers.delete(timer), loop(worker)), worker.intervalMs)
        timers.add(timer)
      })
    running.add(run)
  }
  workers.forEach(loop)
  return {
    async stop() {
      stopping = true
      timers.forEach(clearTimeout)
      await Promise.all(running)
    },
  }
}
