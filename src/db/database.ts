import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { CompiledQuery, Kysely, PostgresDialect, sql, type Transaction } from 'kysely'
import pg from 'pg'
import { AppError } from '../errors.js'
import type { DB } from './schema.js'
import { PGliteDialect } from './pglite-dialect.js'

export type Database = Kysely<DB>
export type Trx = Transaction<DB>

export type DatabaseHandle = {
  db: Database
  driver: 'postgres' | 'pglite'
  /** Raw pool for the few hot statements that run as named prepared statements. */
  pool?: pg.Pool
  pglite?: PGlite
  /** One statement outside any transaction; on PostgreSQL parsed and planned once per connection. */
  prepared<R>(name: string, text: string, values: unknown[]): Promise<R[]>
  close(): Promise<void>
}

const INT8 = 20
const NUMERIC = 1700

// int8 and numeric aggregates arrive as strings from node-postgres: money must be a JSON number.
function parseSafeInteger(value: string): number {
  const n = Number(value)
  if (!Number.isSafeInteger(n)) throw new Error(`integer out of safe range: ${value}`)
  return n
}
function parseNumeric(value: string): number {
  return Number(value)
}
pg.types.setTypeParser(INT8, parseSafeInteger)
pg.types.setTypeParser(NUMERIC, parseNumeric)

export async function openPostgres(url: string, poolMax: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: poolMax })
  // A pool error on an idle client must not crash the process; the next query reconnects.
  pool.on('error', () => {})
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) })
  const prepared = async <R>(name: string, text: string, values: unknown[]) => (await pool.query<R & pg.QueryResultRow>({ name, text, values })).rows
  return { db, driver: 'postgres', pool, prepared, close: () => db.destroy() }
}

export async function openPGlite(options: { dataDir?: string; loadDataDir?: Blob }): Promise<DatabaseHandle> {
  const pglite = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    parsers: { [INT8]: (v: string) => parseSafeInteger(v), [NUMERIC]: (v: string) => parseNumeric(v) },
  })
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) })
  return {
    db,
    driver: 'pglite',
    pglite,
    // Through Kysely, so it waits its turn for PGlite's single session like every other query.
    prepared: async <R>(_name: string, text: string, values: unknown[]) => (await db.executeQuery<R>(CompiledQuery.raw(text, values))).rows,
    close: async () => {
      await db.destroy()
      await pglite.close()
    },
  }
}

/** Embedded PGlite belongs to one process: a lock file in DATA_DIR says which. */
export function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true })
  const file = lockFile(dataDir)
  const holder = dataDirHolder(dataDir)
  if (holder !== undefined) throw new Error(`the embedded database in ${dataDir} is in use by process ${holder}; stop it or set DATABASE_URL`)
  fs.writeFileSync(file, String(process.pid))
  return () => {
    if (readLockHolder(file) === process.pid) fs.rmSync(file, { force: true })
  }
}

/** The live process other than this one that holds the embedded database, if any. */
export function dataDirHolder(dataDir: string): number | undefined {
  const pid = readLockHolder(lockFile(dataDir))
  return pid !== undefined && pid !== process.pid && isAlive(pid) ? pid : undefined
}

const lockFile = (dataDir: string) => path.join(dataDir, 'service.lock')

function readLockHolder(file: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim())
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export async function isDatabaseReachable(db: Database): Promise<boolean> {
  try {
    await sql`select 1`.execute(db)
    return true
  } catch {
    return false
  }
}

const RETRYABLE = new Set(['40001', '40P01'])

/**
 * Runs `run` again, after a short random pause so the same collision is not replayed, while it
 * fails with a deadlock, a serialization failure or an error `alsoRetry` accepts. When every
 * attempt failed so, the database is too busy: 503 SERVICE_UNAVAILABLE.
 */
export async function retrying<T>(run: () => Promise<T>, alsoRetry: (error: { code?: string; constraint?: string }) => boolean = () => false, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run()
    } catch (error) {
      const e = error as { code?: string; constraint?: string }
      if (!RETRYABLE.has(e.code ?? '') && !alsoRetry(e)) throw error
      if (attempt >= attempts) throw new AppError('SERVICE_UNAVAILABLE')
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt))
    }
  }
}

/** Runs a use case in one transaction, retrying deadlocks and serialization failures. */
export async function inTransaction<T>(db: Database, work: (trx: Trx) => Promise<T>): Promise<T> {
  return retrying(() => db.transaction().execute(work))
}
