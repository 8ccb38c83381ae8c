import { Gauge, type Registry } from 'prom-client'
import type { Database } from '../../db/database.js'
import { ALERT_KINDS } from '../../db/schema.js'
import { failureReadings } from './conditions.queries.js'
import { balanceReadings, balanceThresholds, openAlertCounts, queueOldestSeconds } from './gauges.queries.js'

// The alert conditions as Prometheus gauges (docs/design.md §11e), for deploy/prometheus/alerts.yml.
// Read at scrape time: one reading (a few small statements) serves every gauge of a scrape.

type Reading = Awaited<ReturnType<typeof read>>

async function read(db: Database) {
  const [balances, thresholds, failures, queueOldest, open] = await Promise.all([
    balanceReadings(db),
    balanceThresholds(db),
    failureReadings(db),
    queueOldestSeconds(db),
    openAlertCounts(db),
  ])
  return { balances, thresholds, failures, queueOldest, open }
}

/** Hours the balance lasts at the last 24 hours' rate, as GET /providers/{code}/balance says; none without IDR or spend. */
const hoursLeft = (b: { balance: number; currency: string; spent_24h: number }) =>
  b.currency === 'IDR' && b.spent_24h > 0 ? Math.max(0, (b.balance / b.spent_24h) * 24) : undefined

/** Registers the gauges on `registry`; a database that does not answer leaves them empty for that scrape. */
export function registerAlertGauges(registry: Registry, db: Database, log?: (error: unknown) => void): void {
  // The gauges of one scrape are collected together: they share the reading in flight.
  let inFlight: Promise<Reading | undefined> | undefined
  const reading = () =>
    (inFlight ??= read(db)
      .catch((error: unknown) => {
        log?.(error)
        return undefined
      })
      .finally(() => (inFlight = undefined)))
  const gauge = <L extends string>(name: string, help: string, labelNames: L[], fill: (g: Gauge<L>, r: Reading) => void) =>
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const r = await reading()
        this.reset()
        if (r) fill(this, r)
      },
    })
  gauge('supplier_balance', 'The last balance read at each switched-on provider', ['provider', 'currency'], (g, r) => {
    for (const b of r.balances) g.set({ provider: b.provider, currency: b.currency }, b.balance)
  })
  gauge('supplier_balance_alert_below', "Each provider's low-balance threshold (IDR), where set", ['provider'], (g, r) => {
    for (const t of r.thresholds) g.set({ provider: t.provider }, t.below)
  })
  gauge(
    'supplier_balance_hours_left',
    "Hours each provider's IDR balance lasts at the last 24 hours' spend (absent with no spend)",
    ['provider'],
    (g, r) => {
      for (const b of r.balances) {
        const hours = hoursLeft(b)
        if (hours !== undefined) g.set({ provider: b.provider }, Math.round(hours * 10) / 10)
      }
    },
  )
  gauge('upstream_failure_ratio', 'Definite failures over finished upstream requests in the last 10 minutes', ['provider'], (g, r) => {
    for (const f of r.failures) g.set({ provider: f.provider }, f.failed / f.finished)
  })
  gauge('upstream_finished_10m', 'Upstream requests finished in the last 10 minutes (the failure ratio’s base)', ['provider'], (g, r) => {
    for (const f of r.failures) g.set({ provider: f.provider }, f.finished)
  })
  gauge('upstream_queue_oldest_seconds', 'Age of the oldest upstream request still queued for its first send', [], (g, r) => {
    g.set(Math.round(r.queueOldest))
  })
  gauge('alerts_open', 'Operator alerts open now, by kind', ['kind'], (g, r) => {
    for (const kind of ALERT_KINDS) g.set({ kind }, r.open.find((o) => o.kind === kind)?.open ?? 0)
  })
}
