import { type Capacity } from '../src/modules/webhooks/index.js'

/** A worker's capacity with nothing in flight: `free` slots, 8 per receiver, 128 per host. */
export const idleCapacity = (now: Date, free: number, leaseUntil = now): Capacity => ({
  now,
  leaseUntil,
  free,
  perReceiver: 8,
  busy: new Map(),
  perHost: 128,
  hostsBusy: new Map(),
})
