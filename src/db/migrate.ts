import crypto from 'node:crypto'
import fs from 'node:fs'
import { Migrator, sql, type MigrationProvider } from 'kysely'
import type { Database } from './database.js'
import { migrations } from './migrations/index.js'
import { repeatables, type Repeatable } from './repeatable.js'
import { sqlStatements } from './sql-script.js'

const provider: MigrationProvider = { getMigrations: async () => migrations }

// The advisory lock class of this step; functions/advisory-locks.sql lists every class.
const REPEATABLE_LOCK_CLASS = 1919

/**
 * The versioned migrations (append-only, src/db/migrations), then the repeatable SQL files
 * (src/db/repeatable.ts) whose text changed. Nothing in a versioned migration may use a function:
 * on a fresh database the functions arrive after every versioned migration.
 */
export async function migrateToLatest(db: Database): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${(error as Error)?.message ?? 'unknown error'}`, { cause: error })
  }
  await applyRepeatables(db, repeatables)
}

/**
 * Flyway's repeatable migrations: a file runs again whenever its SHA-256 differs from the one the
 * database recorded for it. All in one transaction, under an advisory lock, so processes starting
 * at once apply each change once and a failed file leaves every function as it was.
 * Returns the names of the files applied.
 */
export async function applyRepeatables(db: Database, files: readonly Repeatable[]): Promise<string[]> {
  const scripts = files.map((f) => {
    const text = fs.readFileSync(f.url, 'utf8')
    return { name: f.name, text, hash: crypto.createHash('sha256').update(text).digest('hex') }
  })
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${REPEATABLE_LOCK_CLASS}, 0)`.execute(trx)
    await sql`CREATE TABLE IF NOT EXISTS repeatable_migrations (
      name text PRIMARY KEY, hash text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`.execute(trx)
    const { rows } = await sql<{ name: string; hash: string }>`SELECT name, hash FROM repeatable_migrations`.execute(trx)
    const recorded = new Map(rows.map((r) => [r.name, r.hash]))
    const applied: string[] = []
    for (const script of scripts) {
      if (recorded.get(script.name) === script.hash) continue
      try {
        for (const statement of sqlStatements(script.text)) await sql.raw(statement).execute(trx)
      } catch (error) {
        throw new Error(`repeatable migration ${script.name} failed: ${(error as Error).message}`, { cause: error })
      }
      await sql`INSERT INTO repeatable_migrations (name, hash) VALUES (${script.name}, ${script.hash})
                ON CONFLICT (name) DO UPDATE SET hash = excluded.hash, applied_at = now()`.execute(trx)
      applied.push(script.name)
    }
    return applied
  })
}
