import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { cloneTestDatabase, onPostgres } from '../../test/database.js'
import { ERROR_CODES } from '../errors.js'
import { ORDER_EVENTS } from '../modules/orders/index.js'
import { openPostgres } from './database.js'
import { applyRepeatables, migrateToLatest } from './migrate.js'
import { repeatables, type Repeatable } from './repeatable.js'
import { sqlStatements } from './sql-script.js'

const database = await cloneTestDatabase()
const { db } = database
afterAll(() => database.close())

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'repeatable-'))
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }))
const scratchFile = (name: string, text: string): Repeatable => {
  const file = path.join(scratch, name)
  fs.writeFileSync(file, text)
  return { name: `test/${name}`, url: new URL(`file://${file}`) }
}
const probe = async (fn: string) => (await sql<{ v: number }>`SELECT ${sql.raw(fn)}() AS v`.execute(db)).rows[0].v
const recorded = async (name: string) =>
  (await sql<{ hash: string; applied_at: Date }>`SELECT hash, applied_at FROM repeatable_migrations WHERE name = ${name}`.execute(db))
    .rows[0]

describe('the SQL files and the TypeScript agree', () => {
  const texts = repeatables.map((r) => fs.readFileSync(r.url, 'utf8')).join('\n')

  it('every code raise_app() raises is an error code of src/errors.ts', () => {
    const codes = [...texts.matchAll(/raise_app\('([^']*)'/g)].map((m) => m[1])
    expect(codes.length).toBeGreaterThan(10)
    for (const code of new Set(codes)) expect(Object.keys(ERROR_CODES), `raise_app('${code}')`).toContain(code)
  })

  it('every event written in SQL is one of ORDER_EVENTS', () => {
    const events = [...texts.matchAll(/'((?:order|topup)\.[a-z_.]*[a-z])'/g)].map((m) => m[1])
    expect(events).toContain('order.paid')
    for (const event of new Set(events)) expect(ORDER_EVENTS as readonly string[], event).toContain(event)
  })

  it('the 1920/1921 lock classes are named once, in advisory-locks.sql', () => {
    for (const r of repeatables.filter((r) => !r.name.endsWith('advisory-locks.sql'))) {
      expect(fs.readFileSync(r.url, 'utf8'), r.name).not.toMatch(/\b192[01]\b/)
    }
  })
})

describe('sqlStatements', () => {
  it('splits at top-level semicolons only', () => {
    const script = `-- a comment; with a semicolon
CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $fn$ BEGIN RETURN 1; END $fn$;
/* block; comment */ SELECT 'a;b', "odd;name", $$ x; y $$, $1;
-- only a comment at the end;
`
    expect(sqlStatements(script)).toEqual([
      '-- a comment; with a semicolon\nCREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $fn$ BEGIN RETURN 1; END $fn$',
      `/* block; comment */ SELECT 'a;b', "odd;name", $$ x; y $$, $1`,
    ])
    expect(() => sqlStatements('SELECT $x$ never closed')).toThrow(/unterminated dollar quote/)
  })
})

describe('repeatable migrations', () => {
  it('applies a new file, skips it while unchanged, re-applies it when its text changes', async () => {
    const v1 = 'CREATE OR REPLACE FUNCTION repeatable_probe() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;'
    const file = scratchFile('probe.sql', v1)
    expect(await applyRepeatables(db, [file])).toEqual(['test/probe.sql'])
    expect(await probe('repeatable_probe')).toBe(1)
    const first = await recorded('test/probe.sql')

    expect(await applyRepeatables(db, [file])).toEqual([])
    expect(await recorded('test/probe.sql')).toEqual(first)

    fs.writeFileSync(path.join(scratch, 'probe.sql'), v1.replace('SELECT 1', 'SELECT 2'))
    expect(await applyRepeatables(db, [file])).toEqual(['test/probe.sql'])
    expect(await probe('repeatable_probe')).toBe(2)
    expect((await recorded('test/probe.sql')).hash).not.toBe(first.hash)
  })

  it('a failing file changes nothing, not even the files before it', async () => {
    const good = scratchFile('good.sql', 'CREATE OR REPLACE FUNCTION repeatable_good() RETURNS int LANGUAGE sql AS $$ SELECT 7 $$;')
    const bad = scratchFile(
      'bad.sql',
      'CREATE OR REPLACE FUNCTION repeatable_bad() RETURNS int LANGUAGE sql AS $$ SELECT no_such_column FROM items $$;',
    )
    await expect(applyRepeatables(db, [good, bad])).rejects.toThrow(/repeatable migration test\/bad.sql failed/)
    expect(await recorded('test/good.sql')).toBeUndefined()
    const { rows } = await sql`SELECT 1 FROM pg_proc WHERE proname = 'repeatable_good'`.execute(db)
    expect(rows).toHaveLength(0)
  })

  it('processes starting at once apply a change exactly once', async () => {
    const file = scratchFile('race.sql', 'CREATE OR REPLACE FUNCTION repeatable_race() RETURNS int LANGUAGE sql AS $$ SELECT 3 $$;')
    // On PostgreSQL each "process" is its own pool; PGlite has one session, shared.
    const others = onPostgres ? await Promise.all([1, 2, 3].map(() => openPostgres(database.url!, 2))) : []
    try {
      const handles = onPostgres ? others.map((h) => h.db) : [db, db, db]
      const results = await Promise.all(handles.map((h) => applyRepeatables(h, [file])))
      expect(results.flat()).toEqual(['test/race.sql'])
      expect(await probe('repeatable_race')).toBe(3)
    } finally {
      await Promise.all(others.map((h) => h.close()))
    }
  })

  it('applies a moved file once, under its new path; the record of its old path stays, unused', async () => {
    // A database from before purchase.sql moved to checkout/ recorded it under orders/.
    await sql`INSERT INTO repeatable_migrations (name, hash) VALUES ('modules/orders/purchase.sql', 'before the move')`.execute(db)
    await sql`DELETE FROM repeatable_migrations WHERE name = 'modules/checkout/purchase.sql'`.execute(db)
    expect(await applyRepeatables(db, repeatables)).toEqual(['modules/checkout/purchase.sql'])
    expect(await applyRepeatables(db, repeatables)).toEqual([])
    expect((await recorded('modules/orders/purchase.sql')).hash).toBe('before the move')
    await sql`DELETE FROM repeatable_migrations WHERE name = 'modules/orders/purchase.sql'`.execute(db)
  })

  it('takes over a database whose functions an older version created: every file re-applied, all there', async () => {
    await sql`DELETE FROM repeatable_migrations WHERE name NOT LIKE 'test/%'`.execute(db)
    await migrateToLatest(db)
    const { rows } = await sql<{ name: string }>`SELECT name FROM repeatable_migrations WHERE name NOT LIKE 'test/%' ORDER BY name`.execute(
      db,
    )
    expect(rows.map((r) => r.name)).toEqual(repeatables.map((r) => r.name).sort())
    const defined = repeatables.flatMap((r) =>
      [...fs.readFileSync(r.url, 'utf8').matchAll(/CREATE OR REPLACE FUNCTION (\w+)/g)].map((m) => m[1]),
    )
    const present = await sql<{ proname: string }>`SELECT DISTINCT proname FROM pg_proc WHERE proname = ANY (${defined})`.execute(db)
    expect(present.rows.map((r) => r.proname).sort()).toEqual([...new Set(defined)].sort())
    // Nothing changed since: a second start applies nothing.
    expect(await applyRepeatables(db, repeatables)).toEqual([])
  })
})
