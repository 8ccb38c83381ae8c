import fs from 'node:fs'
import { inject } from 'vitest'
import { DEFAULT_DB_PIPELINES } from '../src/config.js'
import { openPGlite, openPostgres, type DatabaseHandle } from '../src/db/database.js'
import { TEMPLATE_DB, adminQuery, databaseUrlFor, testDatabaseUrl } from './templates.js'

export const onPostgres = testDatabaseUrl !== undefined

let counter = 0

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
