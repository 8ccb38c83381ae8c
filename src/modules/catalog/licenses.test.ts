import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createAutoItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'

const { app, ctx } = await createTestApp()

const add = (itemId: number, licenses: string[]) => admin(app, 'POST', `/items/${itemId}/licenses`, { licenses })
const copies = async (code: string) =>
  (await sql<{ n: number }>`SELECT count(*) AS n FROM licenses WHERE fingerprint = ${ctx.vault.fingerprint(code)}`.execute(ctx.db)).rows[0]
    .n

describe('a voucher is unique in the whole store', () => {
  it('skips, as a duplicate, a license another item holds, in stock or sold', async () => {
    const a = await createAutoItem(app, 0, { price: 1_000 })
    const b = await createAutoItem(app, 0, { price: 1_000 })
    expect(await add(a.id, ['STORE-1', 'STORE-2'])).toEqual({ item_id: a.id, added: 2, duplicates: 0 })
    expect(await add(b.id, ['STORE-1', 'STORE-3'])).toEqual({ item_id: b.id, added: 1, duplicates: 1 })
    // Sold out of item a, the voucher still may not come back through item b.
    const r = await createReseller(app, { balance: 10_000 })
    expect((await buy(app, r, 'both', [{ item_id: a.id, quantity: 2 }])).statusCode).toBe(200)
    expect(await add(b.id, ['STORE-2'])).toEqual({ item_id: b.id, added: 0, duplicates: 1 })
    for (const code of ['STORE-1', 'STORE-2', 'STORE-3']) expect(await copies(code), code).toBe(1)
  })

  it('stocks a voucher once when several operators add it to different items at the same time', async () => {
    const codes = Array.from({ length: 40 }, (_, i) => `RACE-${i}`)
    for (let round = 0; round < 5; round++) {
      const items = await Promise.all([createAutoItem(app, 0), createAutoItem(app, 0), createAutoItem(app, 0)])
      const batch = codes.map((c) => `${c}-${round}`)
      const results = await Promise.all(items.map((item, i) => add(item.id, i === 2 ? batch.slice(20) : batch)))
      expect(
        results.reduce((sum, res) => sum + res.added, 0),
        `round ${round}`,
      ).toBe(batch.length)
      expect(results.map((res) => res.added + res.duplicates)).toEqual([40, 40, 20])
      const { rows } = await sql<{ n: number; distinct: number }>`
        SELECT count(*) AS n, count(DISTINCT fingerprint) AS distinct FROM licenses WHERE item_id = ANY (${items.map((i) => i.id)})`.execute(
        ctx.db,
      )
      expect(rows[0]).toEqual({ n: batch.length, distinct: batch.length })
    }
    await assertInvariants(ctx.db)
  })

  it('registers each voucher once under a primary key, and a sale leaves the registry and its index alone', async () => {
    const { rows } = await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE tablename = 'license_fingerprints'`.execute(
      ctx.db,
    )
    expect(rows.map((r) => r.indexdef)).toEqual([expect.stringMatching(/CREATE UNIQUE INDEX license_fingerprints_pkey .* \(fingerprint\)/)])
    // No index on licenses carries the fingerprint: the claim of a sale rewrites the row and would add an entry to it.
    const onLicenses = await sql<{
      n: number
    }>`SELECT count(*) AS n FROM pg_indexes WHERE tablename = 'licenses' AND indexdef LIKE '%fingerprint%'`.execute(ctx.db)
    expect(onLicenses.rows[0].n).toBe(0)
    const registered = async () => (await sql<{ n: number }>`SELECT count(*) AS n FROM license_fingerprints`.execute(ctx.db)).rows[0].n
    const item = await createAutoItem(app, 0)
    const before = await registered()
    expect((await add(item.id, ['REG-1', 'REG-2', 'REG-1'])).added).toBe(2)
    expect(await registered()).toBe(before + 2)
    const r = await createReseller(app, { balance: 10_000 })
    expect((await buy(app, r, 'reg-sale', [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
    expect(await registered()).toBe(before + 2)
    expect(await add(item.id, ['REG-2'])).toMatchObject({ added: 0, duplicates: 1 })
    await assertInvariants(ctx.db)
  })
})
