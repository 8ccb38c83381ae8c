import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { createSiblingApp, createTestApp, type TestApp } from '../../../test/app.js'
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
const ONE_DEMO = { accounts: 1, providers: 2, categories: 6, items: 7, licenses: 80, ledger: 1 }
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
