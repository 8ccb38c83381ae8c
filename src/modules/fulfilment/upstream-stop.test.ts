import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { onPostgres } from '../../../test/database.js'
import { eventually } from '../../../test/eventually.js'
import { admin, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'
import { startUpstreams } from '../../../test/upstreams.js'

// A stopping upstream worker hands back at once what it claimed and never sent: an smm
// add does not wait out its lease to land in review, an h2h request is not left for its poll.
// PostgreSQL only: a second connection holds the lines' rows so that the claim commits mid-stop.
describe.skipIf(!onPostgres)('upstream worker stop', () => {
  const up = onPostgres ? startUpstreams() : undefined
  afterAll(async () => (await up)?.close())

  it('a claim that commits after the stop began is handed back unsent; another pass sends each request once', async () => {
    const upstreams = (await up)!
    const { app, ctx, databaseUrl } = await createTestApp({ PROVIDER_POLL_SECONDS: '60' })
    await admin(app, 'POST', '/providers', {
      code: 'stop-h2h',
      kind: 'digiflazz',
      base_url: `${upstreams.base}/digiflazz/v1`,
      username: 'demo',
      api_key: 'demo-key',
    })
    await admin(app, 'POST', '/providers', {
      code: 'stop-smm',
      kind: 'smm_panel',
      base_url: `${upstreams.base}/smm/api/v2`,
      api_key: 'demo-key',
    })
    const h2h = await createItem(app, {
      order_process: 'h2h',
      price: 1_000,
      unlimited_stock: true,
      provider: 'stop-h2h',
      provider_code: 'p1',
    })
    const smm = await createItem(app, { order_process: 'smm', price: 10, unlimited_stock: true, provider: 'stop-smm', provider_code: '1' })
    const r = await createReseller(app, { balance: 100_000 })
    const res = await buy(app, r, 'stop-1', [
      { item_id: h2h.id, quantity: 1, note: '081299990001' },
      { item_id: smm.id, quantity: 100, note: 'https://x/stop1' },
    ])
    expect(res.statusCode, res.body).toBe(200)
    const orderId = res.json().data.id as number

    const requests = () =>
      ctx.db.selectFrom('dispatches').select(['kind', 'status', 'attempts']).where('order_id', '=', orderId).orderBy('kind').execute()
    // The claim marks the lines `processing` in its transaction: with their rows held, it waits to commit.
    const holder = new pg.Client({ connectionString: databaseUrl })
    await holder.connect()
    await holder.query('BEGIN')
    await holder.query('SELECT id FROM order_lines WHERE order_id = $1 FOR UPDATE', [orderId])
    const warned: unknown[] = []
    const worker = await ctx.fulfilment
      .upstreamWorker({ concurrency: 8, perHost: 8, pollMs: 60_000 })
      .start(ctx.listen, { error: () => {}, warn: (...args: unknown[]) => warned.push(args) })
    // Asked outside the holder's transaction: pg_stat_activity is read once per transaction.
    const waitingOnLocks = async () =>
      Number(
        (
          await sql<{ n: string }>`
            SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(ctx.db)
        ).rows[0].n,
      )
    await eventually('the claim waits for the held lines', waitingOnLocks, (n) => n > 0, { intervalMs: 50 })
    const stopped = worker.stop()
    await holder.query('COMMIT')
    await holder.end()
    await stopped

    // Back as if never claimed, due at once: no lease to wait out, and an smm add is no case for review.
    expect(await requests()).toEqual([
      { kind: 'digiflazz', status: 'queued', attempts: 0 },
      { kind: 'smm_panel', status: 'queued', attempts: 0 },
    ])
    expect(warned).toHaveLength(1)
    expect(upstreams.digiflazz.requests.filter((q) => q.customer_no === '081299990001')).toEqual([])
    expect(upstreams.smm.adds.filter((a) => a.link === 'https://x/stop1')).toEqual([])

    expect(await ctx.fulfilment.upstream.runOnce()).toBe(2)
    expect(await requests()).toEqual([
      { kind: 'digiflazz', status: 'completed', attempts: 1 },
      { kind: 'smm_panel', status: 'pending', attempts: 1 },
    ])
    expect(upstreams.digiflazz.requests.filter((q) => q.customer_no === '081299990001')).toHaveLength(1)
    expect(upstreams.smm.adds.filter((a) => a.link === 'https://x/stop1')).toHaveLength(1)
    await assertInvariants(ctx.db)
  })
})
