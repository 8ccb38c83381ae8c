import type { OrderProcess } from '../../db/schema.js'

/**
 * The one seam for upstream fulfilment: an h2h provider protocol or an SMM panel plugs in as a
 * dispatcher. Until one is registered for a process, purchases of its items answer
 * PRODUCT_TEMPORARILY_UNAVAILABLE and nothing is debited (docs/design.md §5).
 */
export type LineDispatcher = {
  process: Extract<OrderProcess, 'h2h' | 'smm'>
  /** Sends one order line upstream; run by a worker after commit, never under a row lock. */
  dispatch(orderLineId: number): Promise<void>
}

/** auto and manual lines are fulfilled in-house; the others only through a dispatcher. */
export function fulfillableProcesses(dispatchers: readonly LineDispatcher[]): string[] {
  return ['auto', 'manual', ...dispatchers.map((d) => d.process)]
}
