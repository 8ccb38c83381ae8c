import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { onPostgres } from '../../../test/database.js'
import { createReseller } from '../../../test/factory.js'
import { nodes, type PlanNode } from '../../../test/plans.js'
import { idleCapacity } from '../../../test/webhook-capacity.js'
import type { DB } from '../../db/schema.js'
import { claimDue } from './delivery.queries.js'

// The claim's walk over the accounts with fast deliveries, on what a drain leaves while autovacuum
// is off or behind: each account's delivered row versions stay in the index among its open ones,
// and the walk must pass them marked dead rather than fetch each from the heap at every claim.
describe.skipIf(!onPostgres)('the webhook claim among delivered row versions (PostgreSQL)', async () => {
  const { app, databaseUrl } = await createTestApp()
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 })
  afterAll(() => pool.end())
  const ids = [(await createReseller(app)).id, (await createReseller(app)).id, (await createReseller(app)).id]

  it('fetches no dead version from the heap again once a walk has passed it', async () => {
    // 600 deliveries per account, every hundredth still open: 99 delivered versions before each open one.
    // On a connection of its own (synchronous commit): a dead version is marked only once its deletion is flushed.
    await pool.query(
      `INSERT INTO webhook_deliveries (account_id, event, webhook_id, next_attempt_at)
       SELECT a, 'order.paid', 'evt_churn_' || a || '_' || g, now() - interval '1 hour' + g * interval '1 millisecond'
         FROM unnest($1::bigint[]) a, generate_series(1, 600) g`,
      [ids],
    )
    await pool.query(
      `UPDATE webhook_deliveries SET status = 'delivered', claims = 1, delivered_at = now()
        WHERE account_id = ANY ($1::bigint[]) AND right(webhook_id, 2) <> '00'`,
      [ids],
    )
    const captured: CompiledQuery[] = []
    const spy = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: (e) => void (e.level === 'query' && captured.push(e.query)) })
    const now = new Date()
    const walk = async () => {
      const { rows } = await pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${captured[0]!.sql}`, [...captured[0]!.parameters])
      return nodes(rows[0]['QUERY PLAN'][0].Plan as PlanNode).filter((n) => n['Index Name'] === 'webhook_deliveries_fast_idx')
    }
    // Each claim rolled back: the open deliveries stay as they are for the next walk.
    await pool.query('BEGIN')
    const { claimed } = await claimDue(spy, idleCapacity(now, 50, new Date(now.getTime() + 60_000)))
    await pool.query('ROLLBACK')
    expect(claimed.filter((d) => ids.includes(d.account_id))).toHaveLength(18)
    await pool.query('BEGIN')
    await walk()
    await pool.query('ROLLBACK')
    await pool.query('BEGIN')
    const second = await walk()
    await pool.query('ROLLBACK')
    expect(second.length).toBeGreaterThan(0)
    const fetched = second.reduce((sum, n) => sum + (n as PlanNode & { 'Heap Fetches': number })['Heap Fetches'], 0)
    // About one per account (its first open delivery), not the 297 delivered versions before them.
    expect(fetched).toBeLessThanOrEqual(30)
  })
})
