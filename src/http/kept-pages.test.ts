import { sql } from 'kysely'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createSiblingApp, createTestApp } from '../../test/app.js'
import { admin, createAutoItem, createItem, createReseller, get, type Reseller } from '../../test/factory.js'
import { buy } from '../../test/factory-orders.js'
import { createKeptPages } from './kept-pages.js'

const { app, ctx, databaseUrl } = await createTestApp()

const mutations = async (r: Reseller, query = '') => (await get(app, `/balance/mutations${query}`, r)).json()
const orders = async (r: Reseller, query = '') => (await get(app, `/trx${query}`, r)).json()
const descriptions = (body: any) => body.data.map((m: any) => m.description)

describe('kept ledger pages', () => {
  it('answers a poll from the kept page until a new entry, which the very next poll shows', async () => {
    const r = await createReseller(app, { balance: 5_000 })
    await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: -100, reason: 'fee one' })
    const first = await mutations(r)
    expect(descriptions(first)).toHaveLength(2)
    // Entries never change; one that did (by hand, here) shows the poll was answered from the kept page.
    await sql`UPDATE ledger_entries SET description = 'rewritten' WHERE id = ${first.data[0].id}`.execute(ctx.db)
    expect(await mutations(r)).toEqual(first)
    await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: -200, reason: 'fee two' })
    const after = await mutations(r)
    expect(descriptions(after)).toEqual(['fee two', 'rewritten', expect.any(String)])
    expect(after.meta.total).toBe(3)
  })

  it('keeps each page, page size and cursor apart, and never answers a filtered list from them', async () => {
    const r = await createReseller(app, { balance: 5_000 })
    for (const n of [1, 2, 3]) await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: -n, reason: `fee ${n}` })
    const pageOne = await mutations(r, '?per_page=2')
    const pageTwo = await mutations(r, '?per_page=2&page=2')
    expect(descriptions(pageOne)).toEqual(['fee 3', 'fee 2'])
    expect(descriptions(pageTwo)).toEqual(['fee 1', expect.any(String)])
    expect(descriptions(await mutations(r, `?per_page=2&cursor=${pageOne.meta.next_cursor}`))).toEqual(descriptions(pageTwo))
    expect(descriptions(await mutations(r, '?per_page=3'))).toEqual(['fee 3', 'fee 2', 'fee 1'])
    expect((await mutations(r, '?direction=credit')).data.map((m: any) => m.direction)).toEqual(['credit'])
    const another = await createReseller(app, { balance: 7 })
    expect((await mutations(another, '?per_page=2')).data.map((m: any) => m.amount)).toEqual([7])
  })
})

describe('kept order pages', () => {
  it('shows a new order and a status change in the very next poll', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const manual = await createItem(app, { order_process: 'manual', stock: 3, price: 20_000 })
    const created = (await buy(app, r, 'kept-1', [{ item_id: manual.id, quantity: 1 }])).json().data
    expect((await orders(r)).data.map((o: any) => [o.ref_id, o.status])).toEqual([['kept-1', 'paid']])
    const kept = await orders(r)
    // The kept page answers (a ref_id rewritten by hand does not show) until the list changes.
    await sql`UPDATE orders SET ref_id = 'kept-rewritten' WHERE id = ${created.id}`.execute(ctx.db)
    expect(await orders(r)).toEqual(kept)
    const order = await admin(app, 'GET', `/transactions/${created.id}`)
    await admin(app, 'POST', `/transactions/${created.id}/items/${order.items[0].id}/send`, { product_license: 'code' })
    expect((await orders(r)).data.map((o: any) => [o.ref_id, o.status])).toEqual([['kept-rewritten', 'completed']])
    const item = await createAutoItem(app, 1, { price: 1_000 })
    await buy(app, r, 'kept-2', [{ item_id: item.id, quantity: 1 }])
    const after = await orders(r)
    expect(after.data.map((o: any) => [o.ref_id, o.status])).toEqual([
      ['kept-2', 'completed'],
      ['kept-rewritten', 'completed'],
    ])
    expect(after.meta.total).toBe(2)
    expect((await orders(r, '?status=completed')).meta.total).toBe(2)
  })
})

describe.skipIf(!databaseUrl)('kept pages and other processes (PostgreSQL)', () => {
  it("shows another process's entry and order in this process's next poll", async () => {
    const r = await createReseller(app, { balance: 5_000 })
    expect((await mutations(r)).meta.total).toBe(1)
    expect((await orders(r)).meta.total).toBe(0)
    const sibling = await createSiblingApp(databaseUrl!)
    onTestFinished(() => sibling.close())
    const item = await createAutoItem(sibling.app, 1, { price: 1_000 })
    await buy(sibling.app, r, 'elsewhere', [{ item_id: item.id, quantity: 1 }])
    const after = await mutations(r)
    expect(after.meta.total).toBe(2)
    expect(after.data[0]).toMatchObject({ type: 'purchase', amount: 1_000 })
    expect((await orders(r)).data.map((o: any) => o.ref_id)).toEqual(['elsewhere'])
  })
})

describe('the kept pages themselves', () => {
  it('drop the oldest pages past their bound in bytes and answer only the version a page was read at', () => {
    const pages = createKeptPages(10)
    pages.set('a', '1', 'AAAA')
    pages.set('b', '1', 'BBBB')
    expect(pages.get('a', '2')).toBeUndefined()
    pages.set('a', '2', 'AAA2')
    // 4 + 4 + 4 bytes do not fit in 10: the oldest (b) goes.
    pages.set('c', '1', 'CCCC')
    expect([pages.get('a', '2'), pages.get('b', '1'), pages.get('c', '1')]).toEqual(['AAA2', undefined, 'CCCC'])
    // A page larger than the bound is not kept, and evicts nothing.
    pages.set('d', '1', 'D'.repeat(11))
    expect([pages.get('d', '1'), pages.get('a', '2'), pages.get('c', '1')]).toEqual([undefined, 'AAA2', 'CCCC'])
  })
})
