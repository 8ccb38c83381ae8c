import { Counter, Gauge, type Registry } from 'prom-client'
import type { ReadPools } from './replicas.js'

/** Per pool (the primary's, each replica's): connections, reads handed to it, and a replica's lag and use. */
export function registerPoolMetrics(registry: Registry, reads: ReadPools): void {
  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL connections of each pool: open, idle, and requests waiting for one',
    labelNames: ['pool', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset()
      for (const { name, pool } of reads.stats()) {
        if (!pool) continue
        this.set({ pool: name, state: 'total' }, pool.totalCount)
        this.set({ pool: name, state: 'idle' }, pool.idleCount)
        this.set({ pool: name, state: 'waiting' }, pool.waitingCount)
      }
    },
  })
  new Counter({
    name: 'db_reads_total',
    help: 'Lag-tolerant reads (connections and statements) sent to each pool, the primary or a replica (counted with DATABASE_READ_URL set)',
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() {
      this.reset()
      for (const { name, reads: n } of reads.stats()) this.inc({ pool: name }, n)
    },
  })
  new Gauge({
    name: 'db_replica_lag_seconds',
    help: "Each replica's lag at its last check (absent while unreachable)",
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() {
      this.reset()
      for (const { name, lagMs } of reads.stats()) if (lagMs !== undefined && Number.isFinite(lagMs)) this.set({ pool: name }, lagMs / 1000)
    },
  })
  new Gauge({
    name: 'db_replica_usable',
    help: 'Whether reads go to each replica now (1), or not (0, with the reason: lagging past READ_MAX_LAG_MS, unreachable, or other_cluster: not a standby of DATABASE_URL)',
    labelNames: ['pool', 'reason'] as const,
    registers: [registry],
    collect() {
      this.reset()
      for (const { name, usable, reason } of reads.stats())
        if (usable !== undefined) this.set(usable ? { pool: name } : { pool: name, reason: reason ?? 'unreachable' }, usable ? 1 : 0)
    },
  })
}
