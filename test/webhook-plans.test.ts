import { afterAll, describe, expect, it } from 'vitest'
import { KEYED_PLANS, openPostgres } from '../src/db/database.js'
import { claimDue, earliestDue, recordAttempts, relayOutbox, type Capacity } from '../src/modules/webhooks/delivery.queries.js'
import { findOrdersWithContents } from '../src/modules/orders/order-detail.queries.js'
import { createTestApp } from './app.js'
import { onPostgres } from './database.js'

type PlanNode = { 'Node Type': string; 'Index Name'?: string; Plans?: PlanNode[] }
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)]

// The worker's statements are prepared once per connection, and from the sixth run PostgreSQL may
// keep one generic plan, made while the tables were small: on its keyed pool that plan must
// still find rows by key once they have grown.
describe.skipIf(!onPostgres)("the webhook worker's generic plans on a small database (PostgreSQL)", async () => {
  const { databaseUrl } = await createTestApp()
  const keyed = await openPostgres(databaseUrl!, 1, undefined, [...KEYED_PLANS, 'plan_cache_mode=force_generic_plan'])
  afterAll(() => keyed.close())

  it('keeps every statement on indexes: no seq scan, hash or merge join', async () => {
    const now = new Date()
    const room: Capacity = { now, leaseUntil: now, free: 10, perReceiver: 8, busy: new Map(), perHost: 128, hostsBusy: new Map() }
    await relayOutbox(keyed.db, 10, room)
    await claimDue(keyed.db, room)
    const attempt = { claim: 1, attemptedAt: now, statusCode: 200, durationMs: 1, error: null, failures: 0, nextAttemptAt: null }
    await recordAttempts(keyed.db, [{ ...attempt, deliveryId: 0, status: 'delivered' }])
    await earliestDue(keyed.db)
    await findOrdersWithContents(keyed.db, [0])

    const statements = await keyed.pool!.query<{ name: string; parameter_types: string[] }>(
      `SELECT name, parameter_types::text[] FROM pg_prepared_statements`,
    )
    expect(statements.rows.length).toBe(5)
    for (const { name, parameter_types } of statements.rows) {
      const nulls = parameter_types.length === 0 ? '' : `(${parameter_types.map(() => 'NULL').join(', ')})`
      const { rows } = await keyed.pool!.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) EXECUTE ${name}${nulls}`)
      const all = nodes(rows[0]['QUERY PLAN'][0].Plan)
      const shown = JSON.stringify(rows[0]['QUERY PLAN'][0].Plan, null, 1)
      expect(
        all.filter((n) => /Seq Scan|Hash Join|Merge Join/.test(n['Node Type'])),
        shown,
      ).toEqual([])
      // An account's due deliveries come in the claim's order from the index: the first few are read, not all of them sorted.
      const sortedDue = all.filter(
        (n) => n['Node Type'] === 'Sort' && n.Plans?.some((c) => c['Index Name'] === 'webhook_deliveries_due_idx'),
      )
      expect(sortedDue, shown).toEqual([])
    }
  })
})
