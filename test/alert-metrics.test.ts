import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { inTransaction } from '../src/db/database.js'
import { reconcileKind } from '../src/modules/alerts/index.js'
import { ADMIN_TOKEN, createTestApp } from './app.js'
import { admin, createItem, createReseller } from './factory.js'
import { buy } from './factory-orders.js'
import { addSimulatedProviders, startUpstreams } from './upstreams.js'

// The alert conditions on /metrics (docs/design.md §11e) against the simulators, and
// deploy/prometheus/alerts.yml's rules over exactly those metrics.
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '1500' })
const up = await startUpstreams()
afterAll(() => up.close())
await addSimulatedProviders(app, up)
await admin(app, 'POST', '/providers/dgf/sync?force=true')

const scrape = async () => {
  const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  expect(res.statusCode).toBe(200)
  return res.body
}
/** The value of one sample line, `name{labels} value`, or undefined when absent. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('/metrics: the alert conditions', () => {
  it('shows balances, hours left, thresholds, failure ratio, queue age and open alerts, read at scrape time', async () => {
    // Nothing read yet: no balance series, an empty queue, every kind at 0 open.
    const before = await scrape()
    expect(before).toContain('# TYPE supplier_balance gauge')
    expect(before).not.toMatch(/^supplier_balance\{/m)
    expect(sample(before, 'upstream_queue_oldest_seconds')).toBe(0)
    expect(sample(before, 'alerts_open{kind="supplier_balance_low"}')).toBe(0)

    up.digiflazz.deposit.amount = 2_000_000
    up.smm.balance.amount = '12.5'
    up.smm.balance.currency = 'USD'
    await admin(app, 'POST', '/providers/dgf/balance/refresh')
    await admin(app, 'POST', '/providers/panel/balance/refresh')
    await admin(app, 'PATCH', '/providers/dgf', { balance_alert_below: 3_000_000 })

    // Spend at dgf: one request completes, one fails definitely (a target ending in 2), one waits in the queue.
    const item = await createItem(app, {
      order_process: 'h2h',
      price: 40_000,
      unlimited_stock: true,
      provider: 'dgf',
      provider_code: 'ml86',
    })
    const r = await createReseller(app, { balance: 1_000_000 })
    for (const [ref, note] of [
      ['m-ok', '081277700001'],
      ['m-fail', '081277700002'],
    ])
      expect((await buy(app, r, ref, [{ item_id: item.id, quantity: 1, note }])).statusCode).toBe(200)
    await ctx.fulfilment.upstream.runOnce()
    const finished = await ctx.db.selectFrom('dispatches').select(['status', 'cost']).where('provider', '=', 'dgf').orderBy('id').execute()
    expect(finished.map((d) => d.status)).toEqual(['completed', 'failed'])
    const read = await admin(app, 'POST', '/providers/dgf/balance/refresh')
    const queued = (await buy(app, r, 'm-queued', [{ item_id: item.id, quantity: 1, note: '081277700011' }])).json().data
    await sql`UPDATE dispatches SET created_at = now() - interval '300 seconds' WHERE order_id = ${queued.id}`.execute(ctx.db)
    await inTransaction(ctx.db, (trx) => reconcileKind(trx, 'supplier_balance_low', [{ subject: 'dgf', message: 'dgf is low' }], {}))

    const text = await scrape()
    expect(sample(text, 'supplier_balance{provider="dgf",currency="IDR"}')).toBe(read.balance)
    expect(sample(text, 'supplier_balance{provider="panel",currency="USD"}')).toBe(12.5)
    expect(sample(text, 'supplier_balance_alert_below{provider="dgf"}')).toBe(3_000_000)
    expect(sample(text, 'supplier_balance_hours_left{provider="dgf"}')).toBeCloseTo(read.hours_left, 0)
    // Another currency is not compared with the IDR spend: no hours left.
    expect(sample(text, 'supplier_balance_hours_left{provider="panel"}')).toBeUndefined()
    expect(sample(text, 'upstream_failure_ratio{provider="dgf"}')).toBe(0.5)
    expect(sample(text, 'upstream_finished_10m{provider="dgf"}')).toBe(2)
    expect(sample(text, 'upstream_queue_oldest_seconds')).toBeGreaterThanOrEqual(299)
    expect(sample(text, 'alerts_open{kind="supplier_balance_low"}')).toBe(1)
    expect(sample(text, 'alerts_open{kind="complaints_overdue"}')).toBe(0)

    // Switched off: its balance leaves the gauges (a provider switched off is not read, its alerts clear).
    await admin(app, 'PATCH', '/providers/panel', { active: false })
    expect(sample(await scrape(), 'supplier_balance{provider="panel",currency="USD"}')).toBeUndefined()
  })
})

const RULES = path.join(import.meta.dirname, '..', 'deploy', 'prometheus', 'alerts.yml')
type Rule = { alert?: string; expr?: unknown; for?: unknown; labels?: { severity?: unknown }; annotations?: { summary?: unknown } }

describe('deploy/prometheus/alerts.yml', () => {
  it('is valid Prometheus rules (promtool when installed), each rule complete and over metrics the service exposes', async () => {
    if (spawnSync('promtool', ['--version']).status === 0) execFileSync('promtool', ['check', 'rules', RULES], { stdio: 'pipe' })
    const doc = parseYaml(fs.readFileSync(RULES, 'utf8')) as { groups: { name: string; rules: Rule[] }[] }
    const rules = doc.groups.flatMap((g) => g.rules)
    expect(rules.map((r) => r.alert)).toEqual([
      'SupplierBalanceLow',
      'SupplierBalanceHoursLow',
      'UpstreamFailureRatioHigh',
      'UpstreamQueueStalled',
      'OperatorAlertsOpen',
    ])
    const exposed = new Set([...(await scrape()).matchAll(/^# TYPE (\w+) /gm)].map((m) => m[1]))
    for (const rule of rules) {
      expect(typeof rule.expr, rule.alert).toBe('string')
      expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/)
      expect(rule.labels?.severity, rule.alert).toMatch(/^(warning|critical)$/)
      expect(typeof rule.annotations?.summary, rule.alert).toBe('string')
      const names = metricNames(rule.expr as string)
      expect(names.length, rule.alert).toBeGreaterThan(0)
      expect(
        names.filter((n) => !exposed.has(n)),
        `${rule.alert}: metrics its expr names that /metrics does not expose`,
      ).toEqual([])
    }
  })
})

const PROMQL_WORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right'])

/** The metric names a PromQL expression reads: label matchers, grouping lists and function names left out. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
  return [...bare.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()/g)]
    .map((m) => m[1]!)
    .filter((w) => !PROMQL_WORDS.has(w) && !/^\d/.test(w))
}
