import fs from 'node:fs'
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from './app.js'
import { onPostgres } from './database.js'
import { createAutoItem, createItem, createReseller, type Reseller } from './factory.js'
import { buy } from './factory-orders.js'
import { until } from './eventually.js'
import { assertInvariants } from './invariants.js'
import { startReceiver } from './receiver.js'
import { startServerProcess, type ServerProcess } from './server-process.js'

const READY = 'workers running'

/**
 * Which of `pids` hold a TCP connection to 127.0.0.1:`port` now (Linux: the established sockets of
 * /proc/net/tcp whose remote end is that port, looked up among each process's descriptors). A
 * process connects to a receiver only to send it a callback.
 */
function connectedTo(port: number, pids: number[]): number[] {
  // The address in the kernel's byte order: little-endian here, big-endian elsewhere.
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0')
  const remote = new Set([`0100007F:${hexPort}`, `7F000001:${hexPort}`])
  const inodes = new Set(
    fs
      .readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((f) => f.length > 9 && remote.has(f[2]) && f[3] === '01')
      .map((f) => f[9]),
  )
  const holds = (pid: number, fd: string) => {
    try {
      return inodes.has(/^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? '')
    } catch {
      return false // closed meanwhile
    }
  }
  return pids.filter((pid) => {
    try {
      return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => holds(pid, fd))
    } catch {
      return false
    }
  })
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

  // Which process sent what is read from /proc: Linux only.
  it.skipIf(process.platform !== 'linux')('two worker processes on one database share the work, each event delivered once', async () => {
    const { app, ctx, databaseUrl } = await createTestApp()
    // Slow enough that one process alone (8 in flight per account) would take over a second: the two overlap.
    const receiver = await startReceiver(() => ({ status: 200, delayMs: 100 }))
    const shops = [await subscriber(app, receiver.url), await subscriber(app, receiver.url)]
    const item = await createAutoItem(app, 200, { price: 1_000 })
    const workers = await Promise.all([startWorker(databaseUrl!), startWorker(databaseUrl!)])
    const pids = workers.map((w) => w.child.pid!)
    const sending = new Set<number>()
    const watch = setInterval(() => connectedTo(receiver.port, pids).forEach((pid) => sending.add(pid)), 20)

    const purchases = 100
    for (let batch = 0; batch < purchases; batch += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => buy(app, shops[(batch + i) % 2], `multi-${batch + i}`, [{ item_id: item.id, quantity: 1 }])),
      )
    }
    // order.paid and order.completed per purchase
    await receiver.waitFor(2 * purchases, 30_000).finally(() => clearInterval(watch))
    // Both processes sent callbacks.
    expect([...sending].sort()).toEqual([...pids].sort())
    // Every delivery recorded as delivered, then both workers stopped: no process is left that could
    // send a callback again, so the receiver's count is final.
    await until('every delivery recorded', async () => {
      const left = await ctx.db.selectFrom('webhook_deliveries').select('id').where('status', '<>', 'delivered').execute()
      return left.length === 0
    })
    for (const w of workers) w.child.kill('SIGTERM')
    await Promise.all(workers.map((w) => w.exited))
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
    // Whichever process relayed an order's completion counted it on the leaderboard, once.
    const months = await ctx.db
      .selectFrom('leaderboard_months')
      .select(['account_id', 'transactions', 'amount'])
      .where(
        'account_id',
        'in',
        shops.map((s) => s.id),
      )
      .orderBy('account_id')
      .execute()
    expect(months).toEqual(shops.map((s) => ({ account_id: s.id, transactions: purchases / 2, amount: (purchases / 2) * 1_000 })))
    await assertInvariants(ctx.db)
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
    const unprocessed = await ctx.db.selectFrom('outbox_events').select('id').where('account_id', '=', shop.id).execute()
    expect(unprocessed).toHaveLength(10)
    receiver.answerWith(() => ({ status: 200 }))

    await startWorker(databaseUrl!, env)
    const deliveries = () =>
      ctx.db.selectFrom('webhook_deliveries').select(['status', 'webhook_id']).where('account_id', '=', shop.id).execute()
    await until('20 delivered events', async () => (await deliveries()).filter((d) => d.status === 'delivered').length === 20, {
      timeoutMs: 40_000,
    })
    const arrived = new Set(receiver.received.map((c) => c.headers['webhook-id']))
    for (const d of await deliveries()) expect(arrived.has(d.webhook_id)).toBe(true)
    const refs = new Set(receiver.received.map((c) => c.json.data.ref_id))
    expect(refs.size).toBe(20)
  })
})
