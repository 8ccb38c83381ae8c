import { sql } from 'kysely'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createSiblingApp, createTestApp } from '../../../test/app.js'
import { admin, createReseller, get, type Reseller } from '../../../test/factory.js'
import { createLedgerPages } from './ledger-pages.js'

const { app, ctx, databaseUrl } = await createTestApp()

describe('kept ledger pages', () => {
  const list = async (r: Reseller, query = '') => (await get(app, `/balance/mutations${query}`, r)).json()
  const descriptions = (body: any) => body.data.map((m: any) => m.description)

  it('answers a poll from the kept page until a new entry, which the very next poll shows', async () => {
    const r = await createReseller(app, { balance: 5_000 })
    await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: -100, reason: 'fee one' })
    const first = await list(r)
    expect(descriptions(first)).toHaveLength(2)
    // Entries never change; one that did (by hand, here) shows the poll was answered from the kept page.
    const [newest] = first.data
    await sql`UPDATE ledger_entries SET description = 'rewritten' WHERE id = ${newest.id}`.execute(ctx.db)
    expect(await list(r)).toEqual(first)
    await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: -200, reason: 'fee two' })
    const after = await list(r)
    expect(descriptions(after)).toEqual(['fee two', 'rewritten', expect.any(String)])
    expect(after.meta.total).toBe(3)
  })

  it('keeps each page, page size and cursor apart, and never answers a filtered list from them', async () => {
    const r = await createReseller(app, { balance: 5_000 })
    for (const n of [1, 2, 3]) await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: -n, reason: `fee ${n}` })
    const pageOne = await list(r, '?per_page=2')
    const pageTwo = await list(r, '?per_page=2&page=2')
    expect(descriptions(pageOne)).toEqual(['fee 3', 'fee 2'])
    expect(descriptions(pageTwo)).toEqual(['fee 1', expect.any(String)])
    expect(descriptions(await list(r, `?per_page=2&cursor=${pageOne.meta.next_cursor}`))).toEqual(descriptions(pageTwo))
    expect(descriptions(await list(r, '?per_page=3'))).toEqual(['fee 3', 'fee 2', 'fee 1'])
    expect((await list(r, '?direction=credit')).data.map((m: any) => m.direction)).toEqual(['credit'])
    const another = await createReseller(app, { balance: 7 })
    expect((await list(another, '?per_page=2')).data.map((m: any) => m.amount)).toEqual([7])
  })

  it.skipIf(!databaseUrl)("another process's entry shows in this process's next poll", async () => {
    const r = await createReseller(app, { balance: 5_000 })
    expect((await list(r)).meta.total).toBe(1)
    const sibling = await createSiblingApp(databaseUrl!)
    onTestFinished(() => sibling.close())
    await admin(sibling.app, 'POST', `/resellers/${r.id}/balance`, { amount: -300, reason: 'elsewhere' })
    const after = await list(r)
    expect(after.meta.total).toBe(2)
    expect(descriptions(after)[0]).toBe('elsewhere')
  })

  it('drops the oldest page past its bound and answers only the count a page was read at', () => {
    const pages = createLedgerPages(2)
    pages.set('a', 1, 'A')
    pages.set('b', 1, 'B')
    expect(pages.get('a', 2)).toBeUndefined()
    pages.set('a', 2, 'A2')
    pages.set('c', 1, 'C')
    expect([pages.get('a', 2), pages.get('b', 1), pages.get('c', 1)]).toEqual(['A2', undefined, 'C'])
  })
})
