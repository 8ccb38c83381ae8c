import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSiblingApp } from '../../test/app.js'
import { cloneTestDatabase, onPostgres } from '../../test/database.js'
import { eventually } from '../../test/eventually.js'
import { runActing } from './acting.js'
import { openPostgres, PREPARED, type Database, type DatabaseHandle } from './database.js'
import { listen } from './notifications.js'
import { openReadPools, type ReadPools } from './replicas.js'
import { roleDefaults, storeRoleDefaults } from './role-defaults.js'

// DATABASE_POOLER=transaction (docs/operating.md#pgbouncer), on a direct connection: nothing is
// sent at startup, each transaction sets its own, and nothing is left on the session for the next
// client a pooler would hand the server connection to. test/pgbouncer.test.ts runs PgBouncer itself.
const timeouts = { connectMs: 3000, statementMs: 4000, queryMs: 5000, idleInTransactionMs: 9000 }
const show = async (db: Database, name: string) => Object.values((await sql.raw(`SHOW ${name}`).execute(db)).rows[0] as object)[0] as string
const actor = { actor: { id: 7, name: 'tester', role: 'owner' as const }, action: 'testWrite' }
const acting = async (db: Database) =>
  (await sql<{ actor: string | null }>`SELECT current_setting('audit.actor', true) AS actor`.execute(db)).rows[0].actor ?? ''

describe('the acting operator lasts one transaction', async () => {
  const database = await cloneTestDatabase()
  // One connection: a setting left on the session would meet the next statement.
  const handle = onPostgres ? await openPostgres(database.url!, 1, { pooler: 'transaction' }) : database
  afterAll(async () => {
    if (handle !== database) await handle.close()
    await database.close()
  })

  it('is set in a transaction and for a statement outside one, and gone after each', async () => {
    await runActing(actor, async () => {
      expect(await acting(handle.db)).toBe('tester')
      expect(await handle.db.transaction().execute((trx) => acting(trx))).toBe('tester')
    })
    expect(await acting(handle.db)).toBe('')
    // A failed statement ends its own transaction: the connection takes the next one.
    await runActing(actor, () => expect(sql`SELECT 1/0`.execute(handle.db)).rejects.toMatchObject({ code: '22012' }))
    expect(await acting(handle.db)).toBe('')
  })

  // PGlite's one session can be read beside Kysely's hold on it: what a pooler's next client would find.
  it.runIf(!onPostgres)('leaves nothing on the session while its connection is still held', async () => {
    const onSession = async () =>
      (await database.pglite!.query<{ actor: string | null }>(`SELECT current_setting('audit.actor', true) AS actor`)).rows[0].actor ?? ''
    const seen = await runActing(actor, () =>
      handle.db.connection().execute(async (connection) => {
        const inside = await connection.transaction().execute((trx) => acting(trx))
        return [inside, await onSession()]
      }),
    )
    expect(seen).toEqual(['tester', ''])
  })
})

describe.runIf(onPostgres)('behind a transaction pooler (PostgreSQL)', async () => {
  const database = await cloneTestDatabase()
  const open: DatabaseHandle[] = []
  const opened = async (...args: Parameters<typeof openPostgres>) => {
    const handle = await openPostgres(...args)
    open.push(handle)
    return handle
  }
  afterAll(async () => {
    for (const handle of open) await handle.close()
    await database.close()
  })

  it('sends nothing at startup and sets jit and the timeouts in each transaction only', async () => {
    const { db } = await opened(database.url!, 1, { pooler: 'transaction', timeouts })
    expect([await show(db, 'statement_timeout'), await show(db, 'jit')]).toEqual(['0', 'on'])
    const inside = await db
      .transaction()
      .execute(async (trx) => [
        await show(trx, 'statement_timeout'),
        await show(trx, 'idle_in_transaction_session_timeout'),
        await show(trx, 'jit'),
      ])
    expect(inside).toEqual(['4s', '9s', 'off'])
    expect(await show(db, 'statement_timeout')).toBe('0')
  })

  it('runs a statement of a pool with settings of its own in a transaction of its own', async () => {
    const handle = await opened(database.url!, 1, { pooler: 'transaction', timeouts, settings: ['enable_seqscan=off'] })
    expect(await show(handle.db, 'enable_seqscan')).toBe('off')
    expect((await handle.pool!.query('SHOW enable_seqscan')).rows).toEqual([{ enable_seqscan: 'on' }])
  })

  it('the migrate step’s role defaults reach every new connection to this database; a direct one states its own', async () => {
    const migrating = await opened(database.url!, 2, { pooler: 'transaction' })
    // Processes starting together store them one at a time.
    await Promise.all([storeRoleDefaults(migrating.db, timeouts), storeRoleDefaults(migrating.db, timeouts)])
    expect(await roleDefaults(migrating.db)).toEqual(['idle_in_transaction_session_timeout=9000', 'jit=off', 'statement_timeout=4000'])
    const pooled = await opened(database.url!, 1, { pooler: 'transaction' })
    expect([await show(pooled.db, 'statement_timeout'), await show(pooled.db, 'jit')]).toEqual(['4s', 'off'])
    // Migrations, outside the pooler: no timeout, whatever the role's default.
    expect(await show((await opened(database.url!, 1)).db, 'statement_timeout')).toBe('0')
  })

  it('DB_NAMED_STATEMENTS=false: nothing stays prepared on the server', async () => {
    const names = async (named: boolean) => {
      const handle = await opened(database.url!, 1, { pooler: 'transaction', namedStatements: named })
      await sql`${sql.raw(PREPARED)}SELECT count(*) FROM accounts WHERE id > ${0}`.execute(handle.db)
      await handle.prepared('test_count', 'SELECT count(*) FROM accounts WHERE id > $1', [0])
      return (await sql<{ name: string }>`SELECT name FROM pg_prepared_statements`.execute(handle.db)).rows.length
    }
    expect(await names(true)).toBeGreaterThan(0)
    expect(await names(false)).toBe(0)
  })

  it('listens on DATABASE_LISTEN_URL; without one nothing listens (the workers poll)', async () => {
    const silent = await opened(database.url!, 1, { pooler: 'transaction' })
    expect(silent.listenConfig).toBeUndefined()
    const heard: string[] = []
    const stopSilent = await listen(
      silent,
      'pooler_test',
      (p) => heard.push(`silent ${p}`),
      () => {},
    )
    const direct = await opened(database.url!, 1, { pooler: 'transaction', listenUrl: database.url! })
    const stop = await listen(
      direct,
      'pooler_test',
      (p) => heard.push(`direct ${p}`),
      () => {},
    )
    await sql`SELECT pg_notify('pooler_test', 'rang')`.execute(database.db)
    await eventually(
      'the NOTIFY heard',
      () => heard,
      (h) => h.length > 0,
    )
    expect(heard).toEqual(['direct rang'])
    await stop()
    await stopSilent()
  })
})

// DATABASE_POOLER and DB_NAMED_STATEMENTS reach the replicas' pools too. The "replica" is this
// database itself (a server that is no standby counts as caught up), so reads go to its pool.
describe.runIf(onPostgres)('replica pools behind a transaction pooler (PostgreSQL)', async () => {
  // A database of its own: no role defaults stored by the tests above.
  const database = await cloneTestDatabase()
  let primary: DatabaseHandle
  let reads: ReadPools
  // Opened in beforeAll: the body of a describe skipped on PGlite still runs.
  beforeAll(async () => {
    primary = await openPostgres(database.url!, 1, { pooler: 'transaction', namedStatements: false, timeouts })
    reads = await openReadPools(primary, [database.url!], {
      poolMax: 1,
      maxLagMs: 60_000,
      timeouts: { ...timeouts, statementMs: 6000 },
      pooler: 'transaction',
      namedStatements: false,
    })
  })
  afterAll(async () => {
    await reads?.close()
    await primary?.close()
    await database.close()
  })
  const replicaReads = () => reads.stats().find((s) => s.name !== 'primary')!.reads

  it('send nothing at startup, set the timeouts in each transaction, and leave nothing prepared', async () => {
    const before = replicaReads()
    expect(await show(reads.db, 'statement_timeout')).toBe('0')
    expect(await reads.db.transaction().execute(async (trx) => [await show(trx, 'statement_timeout'), await show(trx, 'jit')])).toEqual([
      '6s',
      'off',
    ])
    await sql`${sql.raw(PREPARED)}SELECT count(*) FROM accounts WHERE id > ${0}`.execute(reads.db)
    await reads.prepared('test_count', 'SELECT count(*) FROM accounts WHERE id > $1', [0])
    // One connection: the statements above ran on the one this reads.
    expect((await sql`SELECT name FROM pg_prepared_statements`.execute(reads.db)).rows).toEqual([])
    expect(replicaReads() - before).toBe(5)
  })

  it('a service behind the pooler opens its replicas the same way (src/service.ts)', async () => {
    const sibling = await createSiblingApp(database.url!, {}, { databaseReadUrls: [database.url!], databasePooler: 'transaction' })
    try {
      // A replica opened as a direct connection would carry the statement timeout from its startup.
      expect(await show(sibling.ctx.dbRead, 'statement_timeout')).toBe('0')
      expect(sibling.ctx.readPools.stats().find((s) => s.name !== 'primary')!.reads).toBe(1)
    } finally {
      await sibling.close()
    }
  })

  it('the primary takes the reads of a replica that does not answer, its statements going out as its own do', async () => {
    const lost = await openReadPools(primary, ['postgres://postgres@127.0.0.1:1/none'], {
      poolMax: 1,
      maxLagMs: 60_000,
      pooler: 'transaction',
    })
    try {
      expect(await lost.db.transaction().execute((trx) => show(trx, 'statement_timeout'))).toBe('4s')
      await sql`${sql.raw(PREPARED)}SELECT count(*) FROM accounts WHERE id > ${0}`.execute(lost.db)
      expect((await sql`SELECT name FROM pg_prepared_statements`.execute(primary.db)).rows).toEqual([])
      expect(lost.stats()[0].reads).toBe(2)
    } finally {
      await lost.close()
    }
  })
})
