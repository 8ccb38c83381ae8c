import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { onPostgres } from '../../../test/database.js'
import { admin, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { nodes, type PlanNode } from '../../../test/plans.js'
import type { DB } from '../../db/schema.js'
import { claimDue } from './claims.queries.js'

// The upstream claim on a backlog (PostgreSQL's planner; PGlite plans alike but has no second
// session to explain with): it walks the due requests in (next_attempt_at, id) order and stops at
// its batch, instead of reading every due request and sorting them at each claim.
describe.skipIf(!onPostgres)('the upstream claim on a backlog of 3,000 due requests (PostgreSQL)', async () => {
  const { app, ctx, databaseUrl } = await createTestApp()
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 })
  afterAll(() => pool.end())
  await admin(app, 'POST', '/providers', { code: 'backlog', kind: 'digiflazz', base_url: 'http://127.0.0.1:9' })
  const item = await createItem(app, { order_process: 'h2h', unlimited_stock: true, provider: 'backlog', provider_code: 'x1' })
  const shop = await createReseller(app, { balance: 1_000_000 })
  expect((await buy(app, shop, 'backlog-1', [{ item_id: item.id, quantity: 1, note: '0812' }])).statusCode).toBe(200)
  // The rest of the backlog as more requests of that line, due one millisecond apart.
  await sql`INSERT INTO dispatches (order_id, order_line_id, seq, provider, kind, upstream_ref, provider_code, target, quantity, amount,
                                    next_attempt_at)
            SELECT d.order_id, d.order_line_id, g, d.provider, d.kind, d.upstream_ref || '-' || g, d.provider_code, d.target, 1, d.amount,
                   now() - interval '1 hour' + g * interval '1 millisecond'
              FROM dispatches d, generate_series(1, 3000) g`.execute(ctx.db)
  await sql`ANALYZE dispatches`.execute(ctx.db)

  it('reads the due index in order, no more rows than its batch, and sorts nothing', async () => {
    const captured: CompiledQuery[] = []
    const spy = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: (e) => void (e.level === 'query' && captured.push(e.query)) })
    const claim = { providers: ['backlog'], limit: 20, pollSeconds: 30, leaseSeconds: 60 }
    expect(await claimDue(spy, claim)).toHaveLength(20)
    const { rows } = await pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${captured[0]!.sql}`, [...captured[0]!.parameters])
    const plan = nodes(rows[0]['QUERY PLAN'][0].Plan as PlanNode)
    const scans = plan.filter((n) => n['Relation Name'] === 'dispatches' || n['Index Name']?.startsWith('dispatches'))
    expect(scans.map((n) => n['Index Name'])).toContain('dispatches_due_order_idx')
    expect(Math.max(...scans.map((n) => n['Actual Rows']))).toBeLessThanOrEqual(20)
    expect(plan.filter((n) => n['Node Type'] === 'Sort')).toEqual([])
  })
})
