import pg from 'pg'
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { callPurchase } from '../src/modules/checkout/index.js'
import { createTestApp } from './app.js'
import { onPostgres } from './database.js'
import { createAutoItem, createReseller } from './factory.js'
import { buy } from './factory-orders.js'

// auto_explain (PostgreSQL's contrib) shows the plans of the statements inside purchase(): PostgreSQL only.
describe.skipIf(!onPostgres)('the license claim inside purchase() on stale statistics (PostgreSQL)', async () => {
  const { app, ctx, databaseUrl } = await createTestApp()
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 })
  afterAll(() => pool.end())

  it('takes licenses from the index of available ones, never walking the sold ones by primary key', async () => {
    // One item holds every license, and the statistics were taken while all of them were available
    // (autovacuum may not run for a long while): a plan by primary key then looks as cheap as any.
    const item = await createAutoItem(app, 1_500, { price: 1_000 })
    const buyer = await createReseller(app, { balance: 100_000_000 })
    await sql`ANALYZE licenses`.execute(ctx.db)
    for (let i = 0; i < 400; i++) await buy(app, buyer, `sold-${i}`, [{ item_id: item.id, quantity: 1 }])

    const client = await pool.connect()
    const notices: string[] = []
    client.on('notice', (notice) => notices.push(notice.message ?? ''))
    try {
      await client.query(`LOAD 'auto_explain'`)
      for (const setting of ['log_min_duration = 0', 'log_nested_statements = on', 'log_analyze = on', 'log_level = notice'])
        await client.query(`SET auto_explain.${setting}`)
      const prepared = async <R>(_name: string, text: string, values: unknown[]) => (await client.query(text, values)).rows as R[]
      // The plan the function runs: generic from the first call (purchase() forces it), and past
      // PL/pgSQL's five custom plans were that setting ever dropped.
      for (let i = 0; i < 7; i++) {
        notices.length = 0
        const call = { accountId: buyer.id, refId: `explained-${i}`, invoice: `INVPLAN${i}`, lockToken: null, processes: ['auto'] }
        await callPurchase(prepared, { ...call, carts: [{ item_id: item.id, quantity: 1 }] })
      }
    } finally {
      client.release()
    }
    const claim = notices.find((n) => /SET status = 'sold'/.test(n))
    expect(claim, notices.join('\n---\n')).toBeDefined()
    expect(claim).toContain('licenses_available_idx')
    expect(claim).not.toMatch(/Rows Removed by Filter: [1-9]/)
    // The connection's previous claim is the floor: the scan starts there, past the sold licenses' dead entries.
    expect(claim).toMatch(/Index Cond: \(\(ROW\(item_id, id\) > ROW\(/)
  })
})
