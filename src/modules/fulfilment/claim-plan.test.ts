import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { onPostgres } from '../../../test/database.js'
import { admin, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { openPostgres } from '../../db/database.js'
import { claimDue, earliestDispatchDue } from './claims.queries.js'

// The upstream claim on a backlog (PostgreSQL's planner; PGlite plans alike but has no per-transaction
// index counts): it walks the due requests in (next_attempt_at, id) order and stops at its batch,
// instead of reading every due request and sorting them at each claim, whatever the statistics say.
// Its statements run inside claim_due_requests() (claims.sql), so what the due index handed out in
// the claim's transaction (pg_stat_get_xact_tuples_returned) is what is held, not an EXPLAIN of the call.
describe.skipIf(!onPostgres)('the upstream claim on a backlog of 3,000 due requests (PostgreSQL)', async () => {
  const { app, ctx, databaseUrl } = await createTestApp()
  const one = await openPostgres(databaseUrl!, 1)
  afterAll(() => one.close())
  await admin(app, 'POST', '/providers', { code: 'backlog', kind: 'digiflazz', base_url: 'http://127.0.0.1:9' })
  const item = await createItem(app, { order_process: 'h2h', unlimited_stock: true, provider: 'backlog', provider_code: 'x1' })
  const shop = await createReseller(app, { balance: 1_000_000 })
  expect((await buy(app, shop, 'backlog-1', [{ item_id: item.id, quantity: 1, note: '0812' }])).statusCode).toBe(200)
  // Statistics from before the backlog, as on a server with autovacuum off (or behind): one request.
  await sql`ANALYZE dispatches`.execute(ctx.db)
  // The rest of the backlog as more requests of that line, due one millisecond apart.
  await sql`INSERT INTO dispatches (order_id, order_line_id, seq, provider, kind, upstream_ref, provider_code, target, quantity, amount,
                                    next_attempt_at)
            SELECT d.order_id, d.order_line_id, g, d.provider, d.kind, d.upstream_ref || '-' || g, d.provider_code, d.target, 1, d.amount,
                   now() - interval '1 hour' + g * interval '1 millisecond'
              FROM dispatches d, generate_series(1, 3000) g`.execute(ctx.db)

  /** Entries the due index handed out to `read`, in one transaction of its own (rolled back). */
  const dueIndexReads = async (read: (trx: typeof one.db) => Promise<unknown>) => {
    // The backend's counts not yet flushed, earlier transactions' included: what `read` adds to them.
    const counted = async (trx: typeof one.db) =>
      Number(
        (await sql<{ n: string }>`SELECT pg_stat_get_xact_tuples_returned('dispatches_due_order_idx'::regclass) AS n`.execute(trx)).rows[0]!
          .n,
      )
    let entries = -1
    await one.db
      .transaction()
      .execute(async (trx) => {
        const before = await counted(trx)
        await read(trx)
        entries = (await counted(trx)) - before
        throw new Error('rolled back')
      })
      .catch((e: Error) => expect(e.message).toBe('rolled back'))
    return entries
  }
  const claim = { providers: ['backlog'], limit: 20, pollSeconds: 30, leaseSeconds: 60 }

  it('on statistics from before the backlog: reads no more of the due index than its batch', async () => {
    let claimed = 0
    expect(await dueIndexReads(async (trx) => (claimed = (await claimDue(trx, claim)).length))).toBeLessThanOrEqual(20)
    expect(claimed).toBe(20)
  })

  it('the next due time: one entry of the due index', async () => {
    let due: Date | null = null
    expect(await dueIndexReads(async (trx) => (due = await earliestDispatchDue(trx)))).toBeLessThanOrEqual(1)
    expect(due).not.toBeNull()
  })

  it('on fresh statistics: the same', async () => {
    await sql`ANALYZE dispatches`.execute(ctx.db)
    expect(await dueIndexReads((trx) => claimDue(trx, claim))).toBeLessThanOrEqual(20)
  })
})
