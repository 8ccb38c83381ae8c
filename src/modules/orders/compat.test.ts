import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { createAutoItem, createReseller, get } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'

// Issue #55 point 4: what integrations written from the public docs send and read (docs/design.md §3, §5b).
const { app } = await createTestApp()
const r = await createReseller(app, { balance: 1_000_000 })
const item = await createAutoItem(app, 5, { price: 1_000 })

describe('the public docs’ words and limits', () => {
  it('per_page above a reseller list’s maximum is taken as the maximum', async () => {
    const catalog = await get(app, '/item?per_page=501', r)
    expect(catalog.statusCode, catalog.body).toBe(200)
    expect(catalog.json().meta.per_page).toBe(500)
    const trx = await get(app, '/trx?per_page=1000', r)
    expect([trx.statusCode, trx.json().meta.per_page]).toEqual([200, 50])
    const mutations = await get(app, '/balance/mutations?per_page=101', r)
    expect([mutations.statusCode, mutations.json().meta.per_page]).toEqual([200, 100])
    // Still refused: no number at all, or 0.
    expect((await get(app, '/trx?per_page=many', r)).statusCode).toBe(422)
    expect((await get(app, '/trx?per_page=0', r)).statusCode).toBe(422)
  })

  it('GET /v1/trx?status=failed lists the canceled ones', async () => {
    expect((await buy(app, r, 'compat-1', [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
    const failed = await get(app, '/trx?status=failed', r)
    expect(failed.statusCode, failed.body).toBe(200)
    expect(failed.json().data).toEqual([])
    const completed = await get(app, '/trx?status=completed', r)
    expect(completed.json().data.map((o: { ref_id: string }) => o.ref_id)).toEqual(['compat-1'])
    expect((await get(app, '/trx?status=broken', r)).statusCode).toBe(422)
  })

  it('variants in GET /v1/item carry their category’s name, as the detail does', async () => {
    const detail = (await get(app, `/item/${item.id}`, r)).json().data
    const listed = (await get(app, '/item?per_page=all', r)).json().data
    const category = listed.find((c: { products: { variants: { id: number }[] }[] }) =>
      c.products.some((p) => p.variants.some((v) => v.id === item.id)),
    )
    const variant = category.products.flatMap((p: { variants: unknown[] }) => p.variants).find((v: { id: number }) => v.id === item.id)
    expect(variant.category).toBe(category.name)
    expect(detail.category).toBe(category.name)
  })
})
