import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { onPostgres } from '../../../test/database.js'
import { admin } from '../../../test/factory.js'
import { addSimulatedProvider, startUpstreams, type Upstreams } from '../../../test/upstreams.js'
import { addBulkProducts, bulkCode } from '../../providers/bulk-price-list.simulator.js'

// docs/design.md §11c: a supplier's list of any size syncs and imports, every multi-row statement within
// PostgreSQL's 65,535 parameters (one INSERT of 16,384 item_sources rows passed it). The limit is checked on
// PostgreSQL (50,000 products: a minute); PGlite (twice as long at that size) takes 5,000, still ten of
// every statement's 500-row chunks (suppliers/chunks.ts, catalog's item inserts).
const BULK = onPostgres ? 50_000 : 5_000
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '60000' })
const opened: Upstreams[] = []
afterAll(() => Promise.all(opened.map((up) => up.close())))

describe(`a ${BULK.toLocaleString('en')}-product list`, () => {
  it('syncs, and imports (a dry run first) with held and zero-priced products skipped', { timeout: 600_000 }, async () => {
    const up = await startUpstreams()
    opened.push(up)
    const prepaid = up.digiflazz.priceLists.prepaid
    addBulkProducts(prepaid, BULK)
    prepaid.change(bulkCode(7), { price: 0 })
    await addSimulatedProvider(app, up, 'digiflazz', 'bulk')
    expect(await admin(app, 'POST', '/providers/bulk/sync?force=true')).toMatchObject({
      listed: BULK + 9,
      changes: { new: BULK + 8, held: 1 },
    })
    prepaid.change(bulkCode(9), { price: 1_000_000 })
    expect(await admin(app, 'POST', '/providers/bulk/sync?force=true')).toMatchObject({ changes: { price: 0, held: 1 } })
    // A product known before is priced 0 by hand, as a list read before price-list hygiene left it.
    await ctx.db
      .updateTable('supplier_products')
      .set({ price: '0' })
      .where('provider', '=', 'bulk')
      .where('code', '=', bulkCode(8))
      .execute()

    const categories = ['Pulsa', 'Data', 'Games', 'E-Money', 'PLN']
    const dry = await admin(app, 'POST', '/providers/bulk/import', { categories, dry_run: true })
    expect(dry.created.length).toBe(BULK - 3 + 7)
    expect(dry.skipped_count).toEqual({ linked: 0, held: 1, invalid_price: 1 })
    expect(dry.skipped.map((s: { code: string; reason: string }) => `${s.code} ${s.reason}`).sort()).toEqual([
      `${bulkCode(8)} invalid_price`,
      `${bulkCode(9)} held`,
    ])
    const countItems = async () =>
      Number(
        (
          await ctx.db
            .selectFrom('items')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const before = await countItems()

    const done = await admin(app, 'POST', '/providers/bulk/import', { categories })
    expect(done.created.length).toBe(dry.created.length)
    expect(await countItems()).toBe(before + dry.created.length)
    const sources = await ctx.db
      .selectFrom('item_sources')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('provider', '=', 'bulk')
      .executeTakeFirstOrThrow()
    expect(Number(sources.n)).toBe(dry.created.length)
    const again = await admin(app, 'POST', '/providers/bulk/import', { categories, dry_run: true })
    expect(again.created).toEqual([])
    expect(again.skipped_count).toEqual({ linked: dry.created.length, held: 1, invalid_price: 1 })
  })
})
