import fs from 'node:fs'
import pg from 'pg'
import { openPGlite, openPostgres } from '../src/db/database.js'
import { migrateToLatest } from '../src/db/migrate.js'

// Imported by the global setup, so no vitest runtime here.
// Several checkouts may test against one server at once: each names its own template.
export const TEMPLATE_DB = process.env.TEST_TEMPLATE_DB || 'reseller_test_template'
export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined

export function databaseUrlFor(name: string): string {
  const url = new URL(testDatabaseUrl!)
  url.pathname = `/${name}`
  return url.toString()
}

export async function adminQuery(statement: string) {
  const client = new pg.Client({ connectionString: testDatabaseUrl })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/** Run once per test run: a migrated database to clone per test file. */
export async function buildTemplates(pgliteTemplate: string): Promise<void> {
  const pglite = await openPGlite({})
  await migrateToLatest(pglite.db)
  const dump = await pglite.pglite!.dumpDataDir('none')
  fs.writeFileSync(pgliteTemplate, Buffer.from(await dump.arrayBuffer()))
  await pglite.close()
  if (testDatabaseUrl) {
    await adminQuery(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`)
    await adminQuery(`CREATE DATABASE ${TEMPLATE_DB}`)
    const handle = await openPostgres(databaseUrlFor(TEMPLATE_DB), 2)
    await migrateToLatest(handle.db)
    await handle.close()
  }
}
