import fs from 'node:fs'
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { cloneTestDatabase } from '../../test/database.js'
import { repeatables } from './repeatable.js'

// Every advisory lock class is one number, named once in advisory-locks.sql: two uses sharing a
// class (the webhook bell once shared license intake's) wait on, or silence, each other.
const read = (url: URL) => fs.readFileSync(url, 'utf8')
// SQL comments name locks in prose (`pg_advisory_xact_lock(class, key)`): only code counts.
const code = (sqlText: string) => sqlText.replace(/--.*$/gm, '')
const REGISTRY_NAME = 'db/functions/advisory-locks.sql'
const registry = read(new URL('./functions/advisory-locks.sql', import.meta.url))
const migrationsDir = new URL('./migrations/', import.meta.url)
const migrations = fs
  .readdirSync(migrationsDir)
  .filter((f) => /^\d{8}_\d{4}_.*\.ts$/.test(f))
  .map((f) => ({ name: f, text: code(read(new URL(f, migrationsDir))) }))
const repeatableTexts = repeatables.map((r) => ({ name: r.name, text: code(read(r.url)) }))

/** The header's list: `--   1922  license_intake_lock_class(): …` → 1922, license_intake_lock_class. */
const listed = [...registry.matchAll(/^--\s+(\d+)\s+(\S+?)(?:\(\))?[:,]?\s/gm)].map((m) => ({ id: Number(m[1]), name: m[2] }))
/** The class functions: name → the number they answer. */
const classes = new Map(
  [...registry.matchAll(/FUNCTION (\w+_lock_class)\(\)[^$]*\$\$\s*SELECT (\d+)\s*\$\$/g)].map((m) => [m[1], Number(m[2])]),
)
/** Every advisory lock call's first argument, with where it stands. */
const LOCK_CALL = /pg_(?:try_)?advisory_(?:xact_)?lock(?:_shared)?\(\s*(\w+\(\)|[^,)]+)/g
const lockCalls = (text: string) => [...text.matchAll(LOCK_CALL)].map((m) => ({ arg: m[1].trim(), at: m.index }))
const namedClass = (arg: string) => /^\w+_lock_class\(\)$/.test(arg) && classes.has(arg.slice(0, -2))

const database = await cloneTestDatabase()
afterAll(() => database.close())

describe('advisory lock classes', () => {
  it('the registry lists each class once, and each class function answers its own listed number', () => {
    expect(classes.size).toBeGreaterThanOrEqual(5)
    const ids = listed.map((l) => l.id)
    expect(new Set(ids).size, `ids listed twice: ${ids}`).toBe(ids.length)
    for (const [name, id] of classes) expect(listed, name).toContainEqual({ id, name })
    // The registry's own literals (lock_ref_id) and migrate.ts's constant are listed too, and collide with nothing.
    const literals = lockCalls(code(registry))
      .filter((c) => /^\d+$/.test(c.arg))
      .map((c) => Number(c.arg))
    const migrate = Number(/REPEATABLE_LOCK_CLASS = (\d+)/.exec(read(new URL('./migrate.ts', import.meta.url)))![1])
    const used = [...classes.values(), ...literals, migrate]
    expect(new Set(used).size, `a number used twice: ${used}`).toBe(used.length)
    const ascending = (list: number[]) => [...list].sort((a, b) => a - b)
    expect(ascending(used)).toEqual(ascending(ids))
  })

  it('the repeatable SQL files lock by a named class; a literal number only in the registry', () => {
    for (const file of repeatableTexts) {
      for (const call of lockCalls(file.text)) {
        if (file.name === REGISTRY_NAME && /^\d+$/.test(call.arg)) continue
        expect(namedClass(call.arg), `${file.name}: pg_…advisory…lock(${call.arg}, …)`).toBe(true)
      }
    }
  })

  it('the migrations lock by a named class, but in functions a repeatable file has since replaced', () => {
    const replaced = new Set(repeatableTexts.flatMap((f) => [...f.text.matchAll(/CREATE OR REPLACE FUNCTION (\w+)/g)].map((m) => m[1])))
    let superseded = 0
    for (const migration of migrations) {
      for (const call of lockCalls(migration.text)) {
        const definitions = [...migration.text.slice(0, call.at).matchAll(/CREATE (?:OR REPLACE )?FUNCTION (\w+)/g)]
        const inFunction = definitions.at(-1)?.[1]
        if (inFunction && replaced.has(inFunction)) {
          superseded++
          continue
        }
        expect(namedClass(call.arg), `${migration.name}: pg_…advisory…lock(${call.arg}, …) in ${inFunction ?? 'a statement'}`).toBe(true)
      }
    }
    // 20261122_0030's first ring_outbox(), replaced by webhooks/webhooks.sql.
    expect(superseded).toBeGreaterThanOrEqual(1)
  })

  it('no TypeScript takes an advisory lock by a literal number, migrate.ts aside', () => {
    const files = fs.readdirSync(new URL('../', import.meta.url), { recursive: true, encoding: 'utf8' })
    const sources = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('migrations/'))
    expect(sources.length).toBeGreaterThan(50)
    for (const file of sources) {
      const text = read(new URL(`../${file}`, import.meta.url))
      for (const call of lockCalls(text)) {
        expect(/^\d+$/.test(call.arg), `${file}: pg_…advisory…lock(${call.arg}, …)`).toBe(false)
      }
    }
  })

  it('in the migrated database, every function locks by a named class (the registry aside)', async () => {
    const { rows } = await sql<{ proname: string; prosrc: string }>`
      SELECT p.proname, p.prosrc FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname = 'public' AND p.prosrc ~ 'advisory_'`.execute(database.db)
    const inRegistry = new Set([...registry.matchAll(/CREATE OR REPLACE FUNCTION (\w+)/g)].map((m) => m[1]))
    expect(rows.map((r) => r.proname)).toContain('ring_outbox')
    for (const fn of rows.filter((r) => !inRegistry.has(r.proname))) {
      for (const call of lockCalls(code(fn.prosrc)))
        expect(namedClass(call.arg), `${fn.proname}: pg_…advisory…lock(${call.arg}, …)`).toBe(true)
    }
    const ring = rows.find((r) => r.proname === 'ring_outbox')!
    expect(lockCalls(code(ring.prosrc)).map((c) => c.arg)).toEqual(['outbox_bell_lock_class()'])
  })
})
