import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createSiblingApp, createTestApp } from '../../test/app.js'
import { onPostgres } from '../../test/database.js'
import { createReseller, get } from '../../test/factory.js'
import type { PreparedStatement } from '../db/database.js'
import { accountCountersReader } from '../modules/accounts/index.js'
import { detailByRefReader } from '../modules/orders/index.js'

// Apps are made at the top: createTestApp closes them in an afterAll, which only a file's top level registers.
const { app, ctx, databaseUrl } = await createTestApp()
const original = ctx.prepared

/** Every authentication lookup fails with `error`; the answer of a reseller request is what a client sees. */
async function answerWhenLookupFails(error: Error) {
  ctx.prepared = () => Promise.reject(error)
  try {
    return await app.inject({ url: '/api/v1/balance', headers: { 'x-apikey': `rk_${Math.random()}` } })
  } finally {
    ctx.prepared = original
  }
}

const withCode = (code: string, message = 'database error') => Object.assign(new Error(message), { code })

describe('a lost or hung database answers 503 SERVICE_UNAVAILABLE, never 500', () => {
  it.each([
    // node-postgres: no SQLSTATE, only a message.
    ['Connection terminated unexpectedly', new Error('Connection terminated unexpectedly')],
    ['connection timeout', new Error('Connection terminated due to connection timeout')],
    ['pool wait', new Error('timeout exceeded when trying to connect')],
    ['query_timeout', new Error('Query read timeout')],
    ['broken client', new Error('Client has encountered a connection error and is not queryable')],
    // PostgreSQL: statement and idle-in-transaction timeouts, shutdowns, connection exceptions, resources.
    ['statement_timeout', withCode('57014', 'canceling statement due to statement timeout')],
    ['idle_in_transaction_session_timeout', withCode('25P03')],
    ['admin shutdown', withCode('57P01')],
    ['crash shutdown', withCode('57P02')],
    ['cannot connect now', withCode('57P03')],
    ['connection failure', withCode('08006')],
    ['too many connections', withCode('53300')],
    // Node's sockets.
    ['ECONNRESET', withCode('ECONNRESET')],
    ['EPIPE', withCode('EPIPE')],
    // A pooler that cannot carry named statements (PgBouncer < 1.21): lost, or another client's.
    ['prepared statement lost', withCode('26000', 'prepared statement "k0" does not exist')],
    ['prepared statement of another client', withCode('42P05', 'prepared statement "k0" already exists')],
  ])('%s', async (_name, error) => {
    const res = await answerWhenLookupFails(error)
    expect(res.statusCode).toBe(503)
    expect(res.body).toBe('{"message":"SERVICE_UNAVAILABLE"}')
  })

  it('keeps 500 INTERNAL_ERROR, without internals, for a fault of the service itself', async () => {
    for (const error of [
      new Error('Connection string is bad: terminated'),
      withCode('42P01', 'relation "x" does not exist'),
      withCode('23505'),
    ]) {
      const res = await answerWhenLookupFails(error)
      expect(res.statusCode, error.message).toBe(500)
      expect(res.body).toBe('{"message":"INTERNAL_ERROR"}')
    }
  })

  // PGlite has one session: a transaction holding it is a database that does not answer /readyz.
  it.skipIf(onPostgres)('/readyz answers 503 when the database does not answer within a second (PGlite)', async () => {
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const holder = ctx.db.transaction().execute(() => held)
    try {
      const ready = await app.inject({ url: '/readyz' })
      expect([ready.statusCode, ready.json()]).toEqual([503, { status: 'database unreachable' }])
    } finally {
      release()
      await holder
    }
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200)
  })

  it('answers every poll that shared a statement 503 when the database is lost under it', async () => {
    const shops = [await createReseller(app), await createReseller(app)]
    // Authenticated once, so the failing statements below are the polls' own.
    for (const shop of shops) expect((await get(app, '/balance', shop)).statusCode).toBe(200)
    const readers = { counters: ctx.accountCounters, details: ctx.detailByRef }
    const lost: PreparedStatement = () => Promise.reject(new Error('Connection terminated unexpectedly'))
    ctx.accountCounters = accountCountersReader(lost)
    ctx.detailByRef = detailByRefReader(lost, ctx.vault)
    try {
      const polls = await Promise.all(shops.flatMap((shop) => [get(app, '/balance', shop), get(app, '/trx/some-ref', shop)]))
      expect(polls.map((p) => [p.statusCode, p.body])).toEqual(Array(4).fill([503, '{"message":"SERVICE_UNAVAILABLE"}']))
    } finally {
      ctx.accountCounters = readers.counters
      ctx.detailByRef = readers.details
    }
  })

  // As a pooler without prepared-statement support does it: the client believes a statement prepared
  // on its connection, the server connection has none. Here DEALLOCATE ALL on the one pooled connection.
  it.runIf(onPostgres)('a named statement the server lost answers 503, and the next request a new connection (PostgreSQL)', async () => {
    const shop = await createReseller(app)
    const sibling = await createSiblingApp(databaseUrl!, {}, {}, { pool: 1, pipelines: 0 })
    expect((await get(sibling.app, '/balance', shop)).statusCode).toBe(200)
    await sql`DEALLOCATE ALL`.execute(sibling.ctx.db)
    // Authenticated a moment ago (the key cache): the balance's own named statement is the one lost.
    const lost = await get(sibling.app, '/balance', shop)
    expect([lost.statusCode, lost.body]).toEqual([503, '{"message":"SERVICE_UNAVAILABLE"}'])
    expect((await get(sibling.app, '/balance', shop)).statusCode).toBe(200)
  })
})
