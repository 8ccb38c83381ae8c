import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { cloneTestDatabase, onPostgres } from '../../test/database.js'
import { PREPARED, openPostgres } from './database.js'

// A newer process migrates while this one runs: its prepared statements must survive a table that changed shape.
describe.runIf(onPostgres)('prepared statements across a migration by another process', async () => {
  const database = await cloneTestDatabase()
  // One connection each way: the statement is prepared where it is run again.
  const handle = await openPostgres(database.url!, 1, { pipelines: 1 })
  afterAll(async () => {
    await handle.close()
    await database.close()
  })
  await sql`CREATE TABLE shape_probe (id integer PRIMARY KEY)`.execute(database.db)
  await sql`INSERT INTO shape_probe VALUES (1)`.execute(database.db)
  const widen = (column: string) => sql`ALTER TABLE shape_probe ADD COLUMN ${sql.ref(column)} text DEFAULT 'x'`.execute(database.db)

  it('runs a pipelined statement again under a new name when its plan would now return other columns', async () => {
    const read = () => handle.prepared<Record<string, unknown>>('shape_probe_all', 'SELECT * FROM shape_probe', [])
    expect(await read()).toEqual([{ id: 1 }])
    await widen('a')
    expect(await read()).toEqual([{ id: 1, a: 'x' }])
    expect(await read()).toEqual([{ id: 1, a: 'x' }])
  })

  it('does the same for a statement prepared through Kysely; inside a transaction it fails once, and the retry passes', async () => {
    const read = async (db = handle.db) =>
      (await sql<Record<string, unknown>>`${sql.raw(PREPARED)}SELECT * FROM shape_probe ORDER BY id`.execute(db)).rows
    expect(await read()).toEqual([{ id: 1, a: 'x' }])
    await widen('b')
    expect(await read()).toEqual([{ id: 1, a: 'x', b: 'x' }])

    await widen('c')
    const inTransaction = handle.db.transaction().execute((trx) => read(trx))
    await expect(inTransaction).rejects.toMatchObject({ code: '0A000' })
    expect(await handle.db.transaction().execute((trx) => read(trx))).toEqual([{ id: 1, a: 'x', b: 'x', c: 'x' }])
  })
})
