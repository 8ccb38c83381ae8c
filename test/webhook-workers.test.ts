import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from './app.js'
import { onPostgres } from './database.js'
import { createAutoItem, createItem, createReseller, type Reseller } from './factory.js'
import { buy } from './factory-orders.js'
import { startReceiver } from './receiver.js'
import { startServerProcess, type ServerProcess } from './server-process.js'

const READY = 'workers running'

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

// Scale-out: API processes with WORKERS=false, worker processes with WORKERS=only, one PostgreSQL.
describe.skipIf(!onPostgres)('webhook worker processes (PostgreSQL)', () => {
  const children: ServerProcess[] = []
  afterAll(() => children.forEach((c) => c.child.kill('SIGKILL')))
  const startWorker = async (databaseUrl: string, env: Record<string, string> = {}) => {
    const worker = await startServerProcess({ DATABASE_URL: databaseUrl, WORKERS: 'only', ...env }, READY)
    children.push(worker)
    return worker
  }

  async function subscriber(app: Awaited<ReturnType<typeof createTestApp>>['app'], url: string): Promise<Reseller> {
    const r = await createReseller(app, { balance: 100_000_000 })
    await app.inject({ method: 'POST', url: '/api/v1/webhook/secret', headers: r.headers })
    await app.inject({ method: 'PUT', url: '/api/v1/webhook', headers: r.headers, payload: { callback_url: url, webhook_enabled: true } })
    return r
  }

  it('two worker processes on one database deliver each event exactly once', async () => {
    const { app, ctx, databaseUrl } = await createTestApp()
    const receiver = await startReceiver(() => ({ status: 200, delayMs: 5 }))
    const shops = [await subscriber(app, receiver.url), await subscriber(app, receiver.url)]
    const item = await createAutoItem(app, 200, { price: 1_000 })
    await Promise.all([startWorker(databaseUrl!), startWorker(databaseUrl!)])

    const purchases = 100
    for (let batch = 0; batch < purchases; batch += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => buy(app, shops[(batch + i) % 2], `multi-${batch + i}`, [{ item_id: item.id, quantity: 1 }])),
      )
    }
    // order.paid and order.completed per purchase
    await receiver.waitFor(2 * purchases, 30_000)
    await new Promise((r) => setTimeout(r, 1_000))
    const ids = receiver.received.map((c) => c.headers['webhook-id'])
    expect(ids).toHaveLength(2 * purchases)
    expect(new Set(ids).size).toBe(2 * purchases)
    const attempts = await ctx.db
      .selectFrom('webhook_deliveries')
      .select(sql<number>`coalesce(sum(jsonb_array_length(attempts)), 0)::int`.as('n'))
      .executeTakeFirstOrThrow()
    expect(attempts.n).toBe(2 * purchases)
    const open = await ctx.db.selectFrom('webhook_deliveries').select('id').where('status', '<>', 'delivered').execute()
    expect(open).toEqual([])
  })

  it('events written before a SIGKILL, and while no worker runs, are delivered after the restart', async () => {
    const { app, ctx, databaseUrl } = await createTestApp()
    const receiver = await startReceiver(() => ({ status: 503 }))
    const shop = await subscriber(app, receiver.url)
    const item = await createItem(app, { order_process: 'manual', unlimited_stock: true, price: 1_000 })
    const env = { WEBHOOK_TIMEOUT_MS: '1000' }
    const first = await startWorker(databaseUrl!, env)
    for (let i = 0; i < 10; i++) await buy(app, shop, `before-${i}`, [{ item_id: item.id, quantity: 1 }])
    await receiver.waitFor(10)
    first.child.kill('SIGKILL')
    await first.exited

    for (let i = 0; i < 10; i++) await buy(app, shop, `between-${i}`, [{ item_id: item.id, quantity: 1 }])
    const unprocessed = await ctx.db
      .selectFrom('outbox_events')
      .select('id')
      .where('account_id', '=', shop.id)
      .where('processed_at', 'is', null)
      .execute()
    expect(unprocessed).toHaveLength(10)
    receiver.answerWith(() => ({ status: 200 }))

    await startWorker(databaseUrl!, env)
    const deliveries = () =>
      ctx.db.selectFrom('webhook_deliveries').select(['status', 'webhook_id']).where('account_id', '=', shop.id).execute()
    await until(async () => (await deliveries()).filter((d) => d.status === 'delivered').length === 20, 40_000, '20 delivered events')
    const arrived = new Set(receiver.received.map((c) => c.headers['webhook-id']))
    for (const d of await deliveries()) expect(arrived.has(d.webhook_id)).toBe(true)
    const refs = new Set(receiver.received.map((c) => c.json.data.ref_id))
    expect(refs.size).toBe(20)
  })
})
