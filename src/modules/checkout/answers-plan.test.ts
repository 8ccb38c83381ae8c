import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../../test/app.js'
import { onPostgres } from '../../../test/database.js'
import { admin, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { openPostgres, type DatabaseHandle } from '../../db/database.js'

// Recording answers on statistics from when the tables were small (autovacuum off or behind): the
// generic plan PostgreSQL keeps for record_upstream_answers()'s statements after five calls hashed a
// sequential scan of every request to update a batch of them (11,444 rows read per batch of 3 in the
// bench). Its statements find their rows by key whatever the statistics say (settlement.sql). What the
// backend's transaction counts say it scanned is what is held; PGlite has no such counts.
describe.skipIf(!onPostgres)('recording upstream answers on stale statistics (PostgreSQL)', () => {
  const ORDERS = 160
  let ctx: TestApp['ctx']
  let one: DatabaseHandle
  let ids: number[] = []
  // In beforeAll: a skipped suite's body still runs on PGlite.
  beforeAll(async () => {
    const test = await createTestApp()
    ctx = test.ctx
    one = await openPostgres(test.databaseUrl!, 1)
    await admin(test.app, 'POST', '/providers', { code: 'stale', kind: 'digiflazz', base_url: 'http://127.0.0.1:9' })
    const item = await createItem(test.app, {
      order_process: 'h2h',
      unlimited_stock: true,
      provider: 'stale',
      provider_code: 'p1',
      price: 1000,
    })
    const shop = await createReseller(test.app, { balance: 10_000_000 })
    const purchase = (ref: string) => buy(test.app, shop, ref, [{ item_id: item.id, quantity: 1, note: '0812' }])
    expect((await purchase('stale-0')).statusCode).toBe(200)
    // Statistics from the first purchase only.
    await sql`ANALYZE dispatches, order_lines, orders`.execute(ctx.db)
    for (let i = 1; i < ORDERS; i++) expect((await purchase(`stale-${i}`)).statusCode).toBe(200)
    ids = (await sql<{ id: string }>`SELECT id FROM dispatches ORDER BY id`.execute(ctx.db)).rows.map((r) => Number(r.id))
  })
  afterAll(() => one?.close())

  const TABLES = ['dispatches', 'order_lines', 'orders'] as const
  /** Sequential scans of the three tables by one batch of answers, in its own transaction on the one connection. */
  const record = async (batch: number[]) => {
    const answers = batch.map((id) => ({
      id,
      from_states: ['queued'],
      status: 'completed',
      refund: 'none',
      message: 'Sukses',
      sn: `SN${id}`,
    }))
    let scans: Record<string, number> = {}
    await one.db.transaction().execute(async (trx) => {
      const counted = async () =>
        (
          await sql<{ relname: string; n: string }>`
            SELECT t AS relname, pg_stat_get_xact_numscans(t::regclass) AS n FROM unnest(${[...TABLES]}::text[]) t`.execute(trx)
        ).rows
      const before = await counted()
      const { rows } = await sql<{ id: string }>`SELECT record_upstream_answers(${JSON.stringify(answers)}::jsonb) AS id`.execute(trx)
      expect(rows.map((r) => Number(r.id)).sort((a, b) => a - b)).toEqual(batch)
      const after = await counted()
      scans = Object.fromEntries(after.map((r, i) => [r.relname, Number(r.n) - Number(before[i]!.n)]))
    })
    return scans
  }

  it('settles batch after batch without a sequential scan, past the point where the plan turns generic', async () => {
    const none = Object.fromEntries(TABLES.map((t) => [t, 0]))
    for (let call = 0; call < 10; call++) expect(await record(ids.slice(call * 3, call * 3 + 3))).toEqual(none)
    const { rows } = await sql<{ status: string; n: string }>`
      SELECT status, count(*) AS n FROM orders WHERE id IN (SELECT order_id FROM dispatches WHERE id = ANY (${ids.slice(0, 30)}::bigint[]))
       GROUP BY status`.execute(ctx.db)
    expect(rows.map((r) => [r.status, Number(r.n)])).toEqual([['completed', 30]])
  })
})
