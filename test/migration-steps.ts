import { Migrator } from 'kysely'
import { afterAll } from 'vitest'
import { openPGlite, openPostgres, type DatabaseHandle } from '../src/db/database.js'
import { migrations } from '../src/db/migrations/index.js'
import { onPostgres } from './database.js'
import { adminQuery, databaseUrlFor } from './templates.js'

// A migration's test: an empty database taken to the migration before it, rows written as an older
// version would have, then the rest of the migrations.
const opened: DatabaseHandle[] = []
afterAll(async () => {
  for (const handle of opened) await handle.close()
})

let counter = 0
// initdb once (seconds of WebAssembly CPU each time); each test loads its own copy of the empty database.
let emptyPGlite: Promise<Blob> | undefined
const dumpOfEmpty = async () => {
  const first = await openPGlite({})
  try {
    return await first.pglite!.dumpDataDir('none')
  } finally {
    await first.close()
  }
}

/** An empty database (no migration run), on PostgreSQL when the suite runs there; closed after the file's tests. */
export async function emptyDatabase(): Promise<DatabaseHandle> {
  let handle: DatabaseHandle
  if (onPostgres) {
    const name = `reseller_migrations_${process.pid}_${++counter}`
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await adminQuery(`CREATE DATABASE ${name}`)
    const pool = await openPostgres(databaseUrlFor(name), 8)
    handle = { ...pool, close: async () => (await pool.close(), await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) }
  } else {
    handle = await openPGlite({ loadDataDir: await (emptyPGlite ??= dumpOfEmpty()) })
  }
  opened.push(handle)
  return handle
}

/** Runs the migrations up to and including `name`. */
export const migrateTo = async (handle: DatabaseHandle, name: string) => {
  const { error } = await new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } }).migrateTo(name)
  if (error) throw error
}
