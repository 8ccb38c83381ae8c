import { CompiledQuery, sql } from 'kysely'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { onPostgres } from '../../../test/database.js'
import { createAutoItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { nodes, type PlanNode } from '../../../test/plans.js'
import { detailByRefReader } from './index.js'
import { orderDetailJson } from './order-detail.queries.js'

// The plan is PostgreSQL's; PGlite runs the same statement on its own planner.
describe.skipIf(!onPostgres)("an order's detail on stale statistics (PostgreSQL)", async () => {
  const { app, ctx, databaseUrl } = await createTestApp()
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 })
  afterAll(() => pool.end())

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

  /** The plan GET /trx/{ref}'s prepared statement settles on (after five runs), run once more. */
  async function pollPlan(accountId: number, ref: string): Promise<PlanNode[] & { generic?: number }> {
    let text = ''
    const capture = async <R>(_name: string, query: string, values: unknown[]) => {
      text = query
      return (await ctx.db.executeQuery<R>(CompiledQuery.raw(query, values))).rows
    }
    await detailByRefReader(capture, ctx.vault)(accountId, ref)
    const client = await pool.connect()
    try {
      await client.query(`PREPARE poll AS ${text}`)
      const args = `'{${accountId}}', ${client.escapeLiteral(`{${JSON.stringify(ref)}}`)}`
      for (let i = 0; i < 6; i++) await client.query(`EXECUTE poll(${args})`)
      const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE poll(${args})`)
      const counts = await client.query(`SELECT generic_plans::int AS n FROM pg_prepared_statements WHERE name = 'poll'`)
      return Object.assign(nodes(rows[0]['QUERY PLAN'][0].Plan as PlanNode), { generic: counts.rows[0].n as number })
    } finally {
      await client.query('DEALLOCATE ALL')
      client.release()
    }
  }

  it("reads each line's item by items_pkey, whatever the lines' statistics say", async () => {
    const item = await createAutoItem(app, 20, { price: 1_000 })
    const buyer = await createReseller(app, { balance: 100_000_000 })
    for (let i = 0; i < 10; i++) await buy(app, buyer, `poll-${i}`, [{ item_id: item.id, quantity: 1 }])
    // A catalog of many pages, one order of 5,000 lines, and statistics that say ten orders hold all
    // the lines (taken while that order was most of them): as a join, the items were hashed from a
    // scan of the whole catalog for the 500 lines expected.
    await sql`INSERT INTO items (product_id, sku, name, price, order_process, unlimited_stock, description)
              SELECT product_id, 'plan-' || g, 'Plan ' || g, 1000, 'manual', true, repeat('x', 200)
                FROM items, generate_series(1, 2000) g WHERE id = ${item.id}`.execute(ctx.db)
    await sql`INSERT INTO order_lines (order_id, position, item_id, order_process, product_name, variant_name, quantity, unit_price, subtotal, status)
              SELECT l.order_id, g, i.id, 'manual', l.product_name, l.variant_name, 1, 1000, 1000, 'pending'
                FROM order_lines l JOIN orders o ON o.id = l.order_id, generate_series(1, 5000) g
                JOIN items i ON i.sku = 'plan-' || (1 + g % 2000)
               WHERE o.account_id = ${buyer.id} AND o.ref_id = 'poll-0'`.execute(ctx.db)
    await sql`ALTER TABLE order_lines ALTER COLUMN order_id SET (n_distinct = 10)`.execute(ctx.db)
    await sql`ANALYZE order_lines`.execute(ctx.db)
    try {
      const plan = await pollPlan(buyer.id, 'poll-3')
      const itemReads = plan.filter((n) => n['Relation Name'] === 'items')
      expect(itemReads.length).toBeGreaterThan(0)
      for (const read of itemReads) expect([read['Node Type'], read['Index Name']]).toEqual(['Index Scan', 'items_pkey'])
      expect(plan.some((n) => n['Node Type'] === 'Hash Join')).toBe(false)
    } finally {
      await sql`ALTER TABLE order_lines ALTER COLUMN order_id RESET (n_distinct)`.execute(ctx.db)
      await sql`ANALYZE order_lines`.execute(ctx.db)
    }
  })

  it('keeps its generic plan for one poll at a time instead of planning each', async () => {
    const item = await createAutoItem(app, 5, { price: 1_000 })
    const buyer = await createReseller(app, { balance: 100_000 })
    await buy(app, buyer, 'one-poll', [{ item_id: item.id, quantity: 1 }])
    // An array parameter counts as ten pairs in a generic plan: ten times one poll's custom plan.
    expect((await pollPlan(buyer.id, 'one-poll')).generic).toBe(2)
  })

  it('probes the invoices only for a ref shaped like one', async () => {
    const item = await createAutoItem(app, 5, { price: 1_000 })
    const buyer = await createReseller(app, { balance: 100_000 })
    const bought = (await buy(app, buyer, 'shop-ref-1', [{ item_id: item.id, quantity: 1 }])).json().data
    const invoiceProbes = (plan: PlanNode[]) => plan.filter((n) => n['Index Name'] === 'orders_invoice_key').map((n) => n['Actual Loops'])
    // A ref_id no invoice looks like: one probe, by (account_id, ref_id).
    expect(invoiceProbes(await pollPlan(buyer.id, 'shop-ref-1'))).toEqual([0])
    // An invoice: both probes, as an order's ref_id may be another's invoice.
    expect(invoiceProbes(await pollPlan(buyer.id, bought.invoice))).toEqual([1])
  })
})
