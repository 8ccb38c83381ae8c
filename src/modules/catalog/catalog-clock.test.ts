import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { until } from '../../../test/eventually.js'
import { admin, createAutoItem, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'

// The catalog's clock is the database's (catalog-clock.sql, migration 20261206_0360): a write to a table
// the listing reads stamps the items it changed and rings catalog_changed, whoever makes it, even plain SQL.
const { app, ctx } = await createTestApp()
const heard: string[] = []
const stop = await ctx.listen(
  'catalog_changed',
  (payload) => heard.push(payload),
  () => {},
)
afterAll(() => stop())

const stampOf = async (id: number) =>
  (await ctx.db.selectFrom('items').select('updated_at').where('id', '=', id).executeTakeFirstOrThrow()).updated_at.getTime()

/** Runs a write and answers what catalog_changed rang for it: every bell between a sentinel rung before it and one rung after it. */
async function bellsOf(write: () => Promise<unknown>): Promise<string[]> {
  // The bells of earlier writes (still on their way) first: a sentinel rung after them marks their end.
  await sentinelHeard()
  heard.length = 0
  await write()
  const sentinel = await sentinelHeard()
  return heard.slice(0, heard.indexOf(sentinel))
}

async function sentinelHeard(): Promise<string> {
  const sentinel = `sentinel-${Math.random()}`
  await sql`SELECT pg_notify('catalog_changed', ${sentinel})`.execute(ctx.db)
  await until('the sentinel arrived', () => heard.includes(sentinel), { intervalMs: 10 })
  return sentinel
}

/** Whether a write moved the item's stamp and rang the bell. */
async function changes(id: number, write: () => Promise<unknown>) {
  const before = await stampOf(id)
  const bells = await bellsOf(write)
  return { stamped: (await stampOf(id)) > before, rang: bells.length > 0 }
}

describe('the catalog clock', () => {
  it('stamps and announces an edit of an item, its product, its category, its sources, its provider, its licenses', async () => {
    await admin(app, 'POST', '/providers', { code: 'clock', kind: 'digiflazz', base_url: 'http://127.0.0.1:9' })
    const item = await createItem(app, { order_process: 'h2h', unlimited_stock: true, provider: 'clock', provider_code: 'x1' })
    const row = await ctx.db
      .selectFrom('items as i')
      .innerJoin('products as p', 'p.id', 'i.product_id')
      .select(['p.id', 'p.category_id'])
      .where('i.id', '=', item.id)
      .executeTakeFirstOrThrow()
    const both = { stamped: true, rang: true }
    expect(await changes(item.id, () => sql`UPDATE items SET price = price + 1 WHERE id = ${item.id}`.execute(ctx.db))).toEqual(both)
    expect(await changes(item.id, () => sql`UPDATE products SET image = 'p.png' WHERE id = ${row.id}`.execute(ctx.db))).toEqual(both)
    expect(await changes(item.id, () => sql`UPDATE categories SET icon = 'c.png' WHERE id = ${row.category_id}`.execute(ctx.db))).toEqual(
      both,
    )
    expect(await changes(item.id, () => sql`UPDATE providers SET active = false WHERE code = 'clock'`.execute(ctx.db))).toEqual(both)
    expect(await changes(item.id, () => sql`UPDATE providers SET active = true WHERE code = 'clock'`.execute(ctx.db))).toEqual(both)
    const sourced = () =>
      sql`INSERT INTO item_sources (item_id, provider, code, priority) VALUES (${item.id}, 'clock', 'x1', 1)`.execute(ctx.db)
    expect(await changes(item.id, sourced)).toEqual(both)
    expect(await changes(item.id, () => sql`DELETE FROM item_sources WHERE item_id = ${item.id}`.execute(ctx.db))).toEqual(both)

    const auto = await createAutoItem(app, 0)
    expect(
      await changes(auto.id, () => admin(app, 'POST', `/items/${auto.id}/licenses`, { licenses: [`CLOCK-${process.pid}-1`] })),
    ).toEqual(both)
    // No license added (a duplicate): nothing changed, nothing rings.
    expect(
      await changes(auto.id, () => admin(app, 'POST', `/items/${auto.id}/licenses`, { licenses: [`CLOCK-${process.pid}-1`] })),
    ).toEqual({
      stamped: false,
      rang: false,
    })
    // A write that sets its own stamp (a backdated test fixture too) is taken at its word.
    expect(
      await changes(auto.id, () => sql`UPDATE items SET updated_at = now() - interval '1 hour' WHERE id = ${auto.id}`.execute(ctx.db)),
    ).toEqual({
      stamped: false,
      rang: false,
    })
  })

  it('stamps a sale’s stock change without a bell: no purchase rings every process', async () => {
    const r = await createReseller(app, { balance: 1_000_000 })
    const counted = await createItem(app, { order_process: 'manual', stock: 5, price: 1_000 })
    const sale = async (ref: string, itemId: number) =>
      expect((await buy(app, r, `clock-${process.pid}-${ref}`, [{ item_id: itemId, quantity: 1, note: 'x' }])).statusCode).toBe(200)
    expect(await changes(counted.id, () => sale('1', counted.id))).toEqual({
      stamped: true,
      rang: false,
    })
    const auto = await createAutoItem(app, 2)
    const bells = await bellsOf(() => sale('2', auto.id))
    expect(bells).toEqual([])
  })
})
