import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { cloneTestDatabase, onPostgres } from '../../test/database.js'
import { openPostgres } from './database.js'

describe.runIf(onPostgres)('connections lost under the pool (PostgreSQL)', async () => {
  const database = await cloneTestDatabase()
  const handle = await openPostgres(database.url!, 2)
  afterAll(async () => {
    await handle.close()
    await database.close()
  })

  it('a checked-out client that hears its backend’s FATAL with no statement in flight does not end the process', async () => {
    const client = await handle.pool!.connect()
    try {
      // What pg emits when the FATAL (57P01, pg_terminate_backend) reaches a client between statements.
      const fatal = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })
      expect(() => client.emit('error', fatal)).not.toThrow()
    } finally {
      client.release(true)
    }
  })

  it('a transaction whose backend is terminated fails with the loss, and the next one runs on a new connection', async () => {
    const lost = handle.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx)
      await sql`SELECT pg_terminate_backend(${rows[0].pid})`.execute(database.db)
      await sql`SELECT 1`.execute(trx)
    })
    await expect(lost).rejects.toMatchObject({ code: '57P01' })
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(handle.db)
    expect(rows).toEqual([{ one: 1 }])
  })
})
