import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { onPostgres } from '../../../test/database.js'
import { createAutoItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { orderDetailJson } from './order-detail.queries.js'

// The plan is PostgreSQL's; PGlite runs the same statement on its own planner.
describe.skipIf(!onPostgres)("an order's detail on stale statistics (PostgreSQL)", async () => {
  const { app, ctx } = await createTestApp()

  it("reads its line's sold licenses by the line, never walking every sold license", async () => {
    // Statistics taken while every license was available (autovacuum off or behind): the index of
    // sold licenses then looks empty, and ANDing it with the line's looked free.
    const item = await createAutoItem(app, 1_500, { price: 1_000 })
    const buyer = await createReseller(app, { balance: 100_000_000 })
    await sql`ANALYZE licenses`.execute(ctx.db)
    for (let i = 0; i < 400; i++) expect((await buy(app, buyer, `sold-${i}`, [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
    const { order } = (await sql<{ order: number }>`SELECT max(id) AS order FROM orders WHERE account_id = ${buyer.id}`.execute(ctx.db))
      .rows[0]

    const { rows } = await sql
      .raw<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT ${orderDetailJson(String(order))}`)
      .execute(ctx.db)
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n')
    expect(plan).toContain('licenses_line_idx')
    expect(plan).not.toContain('licenses_sold_idx')
  })
})
