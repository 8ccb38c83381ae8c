import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { inject } from 'vitest'
import { DEFAULT_DB_PIPELINES } from '../src/config.js'
import { openPGlite, openPostgres, type DatabaseHandle } from '../src/db/database.js'
import { TEMPLATE_DB, adminQuery, databaseUrlFor, testDatabaseUrl } from './templates.js'

export const onPostgres = testDatabaseUrl !== undefined

let counter = 0

/**
 * A DATA_DIR whose embedded database is the run's migrated template: a service or CLI process started
 * on it opens it as a second start does, skipping the first start's initdb and migrations (seconds of
 * CPU each). A test of the first start itself gives an empty folder.
 */
export async function migratedDataDir(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reseller-data-'))
  const bytes = fs.readFileSync(inject('pgliteTemplate'))
  const database = await openPGlite({ dataDir: path.join(dataDir, 'pglite'), loadDataDir: new Blob([bytes]) })
  await database.close()
  return dataDir
}

/** A fresh migrated database of its own: a PGlite clone, or a PostgreSQL database made from the template. */
export async function cloneTestDatabase(): Promise<DatabaseHandle & { url?: string }> {
  if (!onPostgres) {
    const bytes = fs.readFileSync(inject('pgliteTemplate'))
    return openPGlite({ loadDataDir: new Blob([bytes]) })
  }
  const name = `reseller_test_${process.pid}_${++counter}_${Date.now() % 100000}`
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`)
  const url = databaseUrlFor(name)
  const handle = await openPostgres(url, 16, { pipelines: DEFAULT_DB_PIPELINES })
  return {
    ...handle,
    url,
    close: async () => {
      await handle.close()
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}
