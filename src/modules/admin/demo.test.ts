import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { createSiblingApp, createTestApp, type TestApp } from '../../../test/app.js'
import { admin } from '../../../test/factory.js'
import { onPostgres } from '../../../test/database.js'
import { adminQuery, databaseUrlFor } from '../../../test/templates.js'
import { startServerProcess, type ServerProcess } from '../../../test/server-process.js'
import { openPostgres, type Database } from '../../db/database.js'
import { seedDemo } from './demo.js'

const counts = async (db: Database) =>
  (
    await sql<Record<string, number>>`
    SELECT (SELECT count(*) FROM accounts) AS accounts, (SELECT count(*) FROM providers) AS providers,
           (SELECT count(*) FROM categories) AS categories, (SELECT count(*) FROM items) AS items,
           (SELECT count(*) FROM licenses) AS licenses, (SELECT count(*) FROM ledger_entries) AS ledger`.execute(db)
  ).rows[0]
// Seven items made by hand, then eight imported from the simulators' lists (six Digiflazz products, two panel services).
const ONE_DEMO = { accounts: 1, providers: 2, categories: 12, items: 15, licenses: 80, ledger: 1 }
const NOTHING = { accounts: 0, providers: 0, categories: 0, items: 0, licenses: 0, ledger: 0 }

describe('demo seed', () => {
  it('four seeds at once on a fresh database make one demo, and none of them fails', async () => {
    const first = await createTestApp()
    // On PostgreSQL, four "processes" with pools of their own; PGlite has one session to share.
    const apps: TestApp[] = onPostgres
      ? [first, ...(await Promise.all([1, 2, 3].map(() => createSiblingApp(first.databaseUrl!))))]
      : [first, first, first, first]
    const seeded = await Promise.all(apps.map((a) => seedDemo(a.ctx)))
    expect(seeded.filter((s) => s !== undefined)).toHaveLength(1)
    expect(await counts(first.ctx.db)).toEqual(ONE_DEMO)
    // The key it answered is the demo account's, and it works.
    const { apiKey } = seeded.find((s) => s !== undefined)!
    const balance = await first.app.inject({ method: 'GET', url: '/api/v1/balance', headers: { 'x-apikey': apiKey } })
    expect(balance.json()).toEqual({ message: 'OK', data: { balance: 5_000_000 } })
    // Started again later: the database is no longer empty, nothing is added.
    expect(await seedDemo(first.ctx)).toBeUndefined()
    expect(await counts(first.ctx.db)).toEqual(ONE_DEMO)
  })

  it('a seed that fails midway leaves nothing behind, and the next start seeds', async () => {
    const { ctx } = await createTestApp()
    // The demo account is made last: refusing it fails the seed after everything else was written.
    await sql`CREATE FUNCTION refuse_accounts() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk on fire'; END $$`.execute(
      ctx.db,
    )
    await sql`CREATE TRIGGER refuse_accounts BEFORE INSERT ON accounts FOR EACH ROW EXECUTE FUNCTION refuse_accounts()`.execute(ctx.db)
    await expect(seedDemo(ctx)).rejects.toThrow(/disk on fire/)
    expect(await counts(ctx.db)).toEqual(NOTHING)
    await sql`DROP TRIGGER refuse_accounts ON accounts`.execute(ctx.db)
    expect(await seedDemo(ctx)).toBeDefined()
    expect(await counts(ctx.db)).toEqual(ONE_DEMO)
  })

  it("imports the simulators' price lists after the hand-made items: sources, cost, price by the provider's rule", async () => {
    const { app, ctx } = await createTestApp()
    await seedDemo(ctx)
    const items = await admin<any[]>(app, 'GET', '/items?per_page=100')
    const byId = new Map(items.map((i) => [i.id, i]))
    // The README's items keep their ids, prices and hand mapping, with no source a sync would reprice.
    expect([1, 2, 3, 4, 5, 6, 7].map((id) => [byId.get(id).sku, byId.get(id).price])).toEqual([
      ['STEAM60', 61500],
      ['GP100', 99000],
      ['ML86', 19800],
      ['TSEL10', 10850],
      ['IGF100', 15000],
      ['NFX1M', 45000],
      ['PLNPASCA', 2500],
    ])
    const sources = (
      await sql<{ item_id: number; provider: string; code: string; priority: number }>`
        SELECT item_id, provider, code, priority FROM item_sources ORDER BY item_id`.execute(ctx.db)
    ).rows
    expect(sources.map((s) => `${s.item_id} ${s.provider} ${s.code} ${s.priority}`)).toEqual([
      '8 sim-h2h dana50 1',
      '9 sim-h2h ff140 1',
      '10 sim-h2h ml172 1',
      '11 sim-h2h pln20 1',
      '12 sim-h2h bpjs 1',
      '13 sim-h2h tsel25 1',
      '14 sim-smm 2 1',
      '15 sim-smm 3 1',
    ])
    // Cost: the listed price (a panel's rate per 1,000 over 1,000); price = round_up(cost × 1.03, 50), at least cost + 100.
    const priced = (
      await sql<{ id: number; sku: string; cost: string; price: number; postpaid: boolean }>`
        SELECT id, sku, cost::text AS cost, price, (provider_meta->>'postpaid')::boolean AS postpaid FROM items WHERE id >= 8 ORDER BY id`.execute(
        ctx.db,
      )
    ).rows
    expect(priced.map((i) => [i.sku, i.cost, Number(i.price)])).toEqual([
      ['SIM-H2H-DANA50', '50200', 51750],
      ['SIM-H2H-FF140', '18200', 18750],
      ['SIM-H2H-ML172', '38900', 40100],
      ['SIM-H2H-PLN20', '20150', 20800],
      ['SIM-H2H-BPJS', '2500', 2600],
      ['SIM-H2H-TSEL25', '24900', 25650],
      ['SIM-SMM-2', '0.00035', 1],
      ['SIM-SMM-3', '0.00002', 1],
    ])
    expect(priced.find((i) => i.sku === 'SIM-H2H-BPJS')?.postpaid).toBe(true)
    const rules = await admin<any[]>(app, 'GET', '/pricing-rules')
    expect(rules.map((r) => [r.scope, r.provider, r.percent, r.flat, r.round_to, r.min_margin])).toEqual([
      ['provider', 'sim-h2h', 3, 0, 50, 100],
      ['provider', 'sim-smm', 20, 0, 1, 0],
    ])
    // Each list is in supplier_products, recorded as one sync that found every product new.
    expect((await admin<any[]>(app, 'GET', '/providers/sim-h2h/products?per_page=100')).length).toBe(9)
    expect((await admin<any[]>(app, 'GET', '/providers/sim-smm/products?per_page=100')).length).toBe(3)
    const syncs = (
      await sql<{ provider: string; status: string; new_count: number }>`
      SELECT provider, status, new_count FROM supplier_syncs ORDER BY id`.execute(ctx.db)
    ).rows
    expect(syncs).toEqual([
      { provider: 'sim-h2h', status: 'ok', new_count: 9 },
      { provider: 'sim-smm', status: 'ok', new_count: 3 },
    ])
  })

  it('leaves a database an operator already filled alone', async () => {
    const { app, ctx } = await createTestApp()
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/v1/providers',
      headers: { authorization: 'Bearer test-admin-token-0123456789' },
      payload: { code: 'sim-h2h', kind: 'digiflazz', base_url: 'http://127.0.0.1:9/v1' },
    })
    expect(res.statusCode).toBe(200)
    expect(await seedDemo(ctx)).toBeUndefined()
    expect(await counts(ctx.db)).toEqual({ ...NOTHING, providers: 1 })
  })
})

// The whole start as four processes at once would run it: migrations on an empty database, then the seed.
describe.skipIf(!onPostgres)('four services starting together on an empty PostgreSQL database', () => {
  const name = `reseller_demo_race_${process.pid}`
  const children: ServerProcess[] = []
  afterAll(async () => {
    children.forEach((c) => c.child.kill('SIGKILL'))
    await Promise.all(children.map((c) => c.exited))
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  })

  it('all four start, one demo between them', async () => {
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await adminQuery(`CREATE DATABASE ${name}`)
    const env = { DATABASE_URL: databaseUrlFor(name), APP_ENV: 'development', SEED_DEMO: 'true', WORKERS: 'false' }
    const started = await Promise.allSettled([1, 2, 3, 4].map(() => startServerProcess(env)))
    for (const s of started) if (s.status === 'fulfilled') children.push(s.value)
    expect(started.map((s) => (s.status === 'fulfilled' ? 'started' : String(s.reason)))).toEqual(Array(4).fill('started'))
    const handle = await openPostgres(databaseUrlFor(name), 1)
    try {
      expect(await counts(handle.db)).toEqual(ONE_DEMO)
    } finally {
      await handle.close()
    }
  })
})
