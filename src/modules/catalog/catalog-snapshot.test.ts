import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { createSiblingApp, createTestApp } from '../../../test/app.js'
import { onPostgres } from '../../../test/database.js'
import { eventually, until } from '../../../test/eventually.js'
import { admin, createAutoItem, createItem, createReseller, get } from '../../../test/factory.js'
import { watchCatalogChanges } from './catalog-snapshot.js'

const { app, ctx, databaseUrl } = await createTestApp()
const r = await createReseller(app, { balance: 1_000_000 })

const catalog = async (query = '') => {
  const res = await get(app, `/item${query}`, r)
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}
const variantsOf = (body: any): any[] => body.data.flatMap((c: any) => c.products.flatMap((p: any) => p.variants))
const variant = (body: any, id: number) => variantsOf(body).find((v) => v.id === id)

/**
 * Deltas from `since` until one shows the item as `wanted` says (each answer's server_time the next
 * cursor). A delta may repeat an item it already gave (a cursor is conservative while other
 * transactions in the cluster are in flight), so wait for the state, not the item.
 */
async function deltaUntil(since: string, id: number, wanted: (v: any) => boolean) {
  const shown = await eventually(
    `item ${id} as wanted in a delta`,
    async () => {
      const delta = await catalog(`?per_page=all&updated_since=${encodeURIComponent(since)}`)
      since = delta.server_time
      return variant(delta, id)
    },
    (found) => found !== undefined && wanted(found),
  )
  return shown
}

describe('the catalog snapshot', () => {
  it('shows an item edit to the very next read of the same process', async () => {
    const item = await createItem(app, { price: 10_000 })
    expect(variant(await catalog('?per_page=all'), item.id).price).toBe(10_000)
    await admin(app, 'PATCH', `/items/${item.id}`, { price: 11_000 })
    expect(variant(await catalog('?per_page=all'), item.id).price).toBe(11_000)
    await admin(app, 'PATCH', `/items/${item.id}`, { active: false })
    expect(variant(await catalog('?per_page=all'), item.id)).toBeUndefined()
  })

  it('serves the same answer to every reseller, and a sale reaches the deltas that follow it', async () => {
    const item = await createAutoItem(app, 3)
    const other = await createReseller(app)
    const listing = await catalog('?per_page=all')
    expect((await get(app, '/item?per_page=all', other)).json()).toEqual(listing)
    const bought = await app.inject({
      method: 'POST',
      url: '/api/v1/trx',
      headers: r.headers,
      payload: { ref_id: `snap-${process.pid}`, carts: [{ item_id: item.id, quantity: 1 }] },
    })
    expect(bought.statusCode, bought.body).toBe(200)
    // No invalidation: the sale leaves the catalog's rows alone and arrives with the next renewal.
    expect((await deltaUntil(listing.server_time, item.id, (v) => v.stock === 2))?.stock).toBe(2)
  })

  it('hands out the cursor of the snapshot it served: nothing committed later is lost', async () => {
    const item = await createItem(app, { price: 20_000 })
    const first = await catalog('?per_page=all')
    await admin(app, 'PATCH', `/items/${item.id}`, { price: 21_000 })
    const second = await catalog(`?per_page=all&updated_since=${encodeURIComponent(first.server_time)}`)
    expect(variantsOf(second).map((v) => [v.id, v.price])).toContainEqual([item.id, 21_000])
    expect(second.server_time >= first.server_time).toBe(true)
  })
})

describe.skipIf(!onPostgres)('the delta cursor with a transaction in flight (PostgreSQL)', () => {
  it('a change stamped before a listing but committed after it is in the delta from that listing', async () => {
    const item = await createItem(app, { price: 30_000 })
    await catalog('?per_page=all')
    const other = new pg.Client({ connectionString: databaseUrl })
    await other.connect()
    try {
      await other.query('BEGIN')
      await other.query(`UPDATE items SET price = 31000, updated_at = catalog_change_time() WHERE id = $1`, [item.id])
      const stamped: Date = (await other.query('SELECT updated_at FROM items WHERE id = $1', [item.id])).rows[0].updated_at
      ctx.catalog.invalidate()
      const listing = await catalog('?per_page=all')
      // The listing cannot see the uncommitted price, and its cursor comes before the change's stamp.
      expect(variant(listing, item.id).price).toBe(30_000)
      expect(new Date(listing.server_time).getTime()).toBeLessThanOrEqual(stamped.getTime())
      await other.query('COMMIT')
      ctx.catalog.invalidate()
      const delta = await catalog(`?per_page=all&updated_since=${encodeURIComponent(listing.server_time)}`)
      expect(variant(delta, item.id)?.price).toBe(31_000)
    } finally {
      await other.end()
    }
  })

  it('another process renews its snapshot when an edit is announced', async () => {
    const sibling = await createSiblingApp(databaseUrl!)
    let heard = 0
    const invalidate = sibling.ctx.catalog.invalidate
    sibling.ctx.catalog.invalidate = () => {
      heard++
      invalidate()
    }
    const stop = await watchCatalogChanges(sibling.ctx)
    try {
      const item = await createItem(app, { price: 40_000 })
      await until('the sibling heard the new item', () => heard > 0, { intervalMs: 20 })
      const read = async () => variant((await get(sibling.app, '/item?per_page=all', r)).json(), item.id)?.price
      expect(await read()).toBe(40_000)
      heard = 0
      await admin(app, 'PATCH', `/items/${item.id}`, { price: 41_000 })
      // Told by NOTIFY catalog_changed: its very next read is taken after the edit.
      await until('the sibling heard the edit', () => heard > 0, { intervalMs: 20 })
      expect(await read()).toBe(41_000)
    } finally {
      await stop()
    }
  })
})
