import { sql, type Kysely } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { openPostgres } from '../src/db/database.js'
import { migrations } from '../src/db/migrations/index.js'
import { repeatables } from '../src/db/repeatable.js'
import { buildOnce, exitWithin, listening, startBuilt } from './built-process.js'
import { cloneTestDatabase, onPostgres } from './database.js'
import { eventually, until } from './eventually.js'
import { startReceiver } from './receiver.js'
import { adminCall } from './server-process.js'
import { adminQuery, databaseUrlFor } from './templates.js'

// Roles from one build (docs/design.md §12): `node dist/main.js` with ROLE=all|api|worker|migrate.
const dist = buildOnce('roles')

/** How many sessions on the database listen for outbox NOTIFYs: one per running webhook worker. */
async function outboxListeners(db: Kysely<any>): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN outbox'`.execute(db)
  return rows[0].n
}

/** A reseller (through the operator API of a running process) whose webhooks go to `url`, and a manual item it can buy. */
async function shopOn(base: string, url: string, enabled = true) {
  const account = await adminCall(base, 'POST', '/resellers', { name: 'Role Shop' })
  await adminCall(base, 'POST', `/resellers/${account.id}/balance`, { amount: 1_000_000, reason: 'roles test' })
  const headers = { 'x-apikey': account.api_key as string, 'content-type': 'application/json' }
  expect((await fetch(`${base}/api/v1/webhook/secret`, { method: 'POST', headers })).status).toBe(200)
  const put = await fetch(`${base}/api/v1/webhook`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ callback_url: url, webhook_enabled: enabled }),
  })
  expect(put.status, await put.text()).toBe(200)
  const item = await adminCall(base, 'POST', '/items', {
    product_name: 'Roles',
    name: `role item ${Date.now()}`,
    sku: `ROLE-${process.pid}-${Date.now()}`,
    price: 1_000,
    order_process: 'manual',
    unlimited_stock: true,
  })
  const buy = async (ref: string) => {
    const res = await fetch(`${base}/api/v1/trx`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ref_id: ref, carts: [{ item_id: item.id, quantity: 1 }] }),
    })
    expect(res.status, await res.clone().text()).toBe(200)
  }
  return { headers, buy }
}

describe('ROLE', () => {
  it('a bad ROLE, or one that contradicts the deprecated WORKERS, exits 1 with a line naming the variable', async () => {
    const bad = await startBuilt(dist, { ROLE: 'web' })
    expect(await exitWithin(bad, 30_000), bad.output()).toBe(1)
    expect(bad.output()).toMatch(/^ {2}ROLE: expected one of all, api, worker, migrate \(got "web"\)$/m)
    const both = await startBuilt(dist, { ROLE: 'api', WORKERS: 'only' })
    expect(await exitWithin(both, 30_000), both.output()).toBe(1)
    expect(both.output()).toMatch(/^ {2}ROLE: api contradicts WORKERS=only .*unset WORKERS$/m)
    expect(both.output().trim().split('\n')).toHaveLength(2)
  })
})

// Each test starts processes of the build (a few seconds each on two busy cores): two minutes apiece.
describe.skipIf(!onPostgres)('ROLE on PostgreSQL', () => {
  const databases: { close(): Promise<void> }[] = []
  afterAll(async () => {
    for (const d of databases) await d.close()
  })
  const database = async () => {
    const db = await cloneTestDatabase()
    databases.push(db)
    return db
  }

  it('ROLE=migrate migrates an empty database, never listens, exits 0; again, it has nothing to do', async () => {
    const name = `reseller_migrate_${process.pid}_${Date.now() % 100000}`
    await adminQuery(`CREATE DATABASE ${name}`)
    const url = databaseUrlFor(name)
    databases.push({ close: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) })
    const job = await startBuilt(dist, { ROLE: 'migrate', DATABASE_URL: url })
    let listened = false
    // Watched until it exits: at no probe did its port answer.
    await until(
      'the migrate job exited',
      async () => {
        listened ||= await listening(job.port)
        return job.child.exitCode !== null
      },
      { timeoutMs: 60_000, intervalMs: 50 },
    )
    expect(await job.exited, job.output()).toBe(0)
    expect(listened).toBe(false)
    expect(job.output()).toContain('migrated: exiting (ROLE=migrate)')
    expect(job.output()).not.toContain('listening on')

    const handle = await openPostgres(url, 1)
    try {
      const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(handle.db)
      expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(migrations).sort())
      const functions = await sql<{ name: string }>`SELECT name FROM repeatable_migrations`.execute(handle.db)
      expect(functions.rows.map((r) => r.name).sort()).toEqual(repeatables.map((r) => r.name).sort())
    } finally {
      await handle.close()
    }
    const again = await startBuilt(dist, { ROLE: 'migrate', DATABASE_URL: url })
    expect(await exitWithin(again, 30_000), again.output()).toBe(0)
  }, 120_000)

  it('ROLE=api serves /readyz and runs no worker: a webhook waits until a ROLE=worker process (which does not listen) runs', async () => {
    const db = await database()
    const receiver = await startReceiver()
    const api = await startBuilt(dist, { ROLE: 'api', DATABASE_URL: db.url! })
    await api.waitFor(/listening on/)
    expect(api.output()).toMatch(/role: +api \(no background workers/)
    expect((await fetch(`${api.base}/readyz`)).status).toBe(200)
    const shop = await shopOn(api.base, receiver.url)
    await shop.buy('role-api-1')
    // No sleep-and-see: the api process, up and serving, has no session listening for the outbox's
    // NOTIFY (a webhook worker holds one), and the event is still in the outbox, relayed by nobody.
    expect(await outboxListeners(db.db)).toBe(0)
    expect(receiver.received).toHaveLength(0)
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM outbox_events`.execute(db.db)
    expect(rows[0].n).toBe(1)

    const worker = await startBuilt(dist, { ROLE: 'worker', DATABASE_URL: db.url! })
    await worker.waitFor(/workers running \(ROLE=worker: no API\)/)
    // The probe sees a worker when there is one (so its 0 above is an observation, not a blind spot).
    await eventually(
      'the worker listens for the outbox',
      () => outboxListeners(db.db),
      (n) => n === 1,
      { timeoutMs: 10_000 },
    )
    await receiver.waitFor(1, 10_000)
    expect(receiver.received[0].json.event).toBe('order.paid')
    expect(await listening(worker.port)).toBe(false)
    expect(worker.output()).not.toContain('listening on')
    for (const p of [api, worker]) p.child.kill('SIGTERM')
    expect(await exitWithin(api, 15_000), api.output()).toBe(0)
    expect(await exitWithin(worker, 15_000), worker.output()).toBe(0)
  }, 120_000)

  it('an api process on SIGTERM refuses new connections and still answers the slow request in flight, then exits 0', async () => {
    const db = await database()
    // The test send waits on the receiver: a request that is slow for a reason outside the service.
    const receiver = await startReceiver(() => ({ status: 200, delayMs: 3_000 }))
    const api = await startBuilt(dist, { ROLE: 'api', DATABASE_URL: db.url! })
    await api.waitFor(/listening on/)
    const shop = await shopOn(api.base, receiver.url, false)
    let answered = false
    const slow = fetch(`${api.base}/api/v1/webhook/test`, { method: 'POST', headers: shop.headers }).finally(() => (answered = true))
    await receiver.waitFor(1)
    api.child.kill('SIGTERM')
    // The port closes while the slow request (the receiver holds it for 3 s) is still unanswered:
    // an order of events, not a stopwatch.
    await until('the port closed', async () => !(await listening(api.port)), { timeoutMs: 30_000, intervalMs: 20 })
    expect(answered, 'the slow request was still in flight when new connections were refused').toBe(false)
    await expect(fetch(`${api.base}/healthz`)).rejects.toThrow()
    const res = await slow
    expect(res.status).toBe(200)
    expect((await res.json()).data).toMatchObject({ delivered: true, status_code: 200 })
    expect(await exitWithin(api, 10_000), api.output()).toBe(0)
    expect(api.output()).toContain('stopping on SIGTERM')
  }, 120_000)

  it('a worker on SIGTERM hands its unanswered deliveries back at once: another worker delivers them long before the lease', async () => {
    const db = await database()
    const receiver = await startReceiver(() => ({ status: 200, delayMs: 60_000 }))
    // A long lease (timeout + 10 s): without the hand-back the delivery would wait 40 s for it.
    const env = { DATABASE_URL: db.url!, WEBHOOK_TIMEOUT_MS: '30000' }
    const api = await startBuilt(dist, { ROLE: 'api', DATABASE_URL: db.url! })
    await api.waitFor(/listening on/)
    const first = await startBuilt(dist, { ROLE: 'worker', ...env })
    await first.waitFor(/workers running/)
    const shop = await shopOn(api.base, receiver.url)
    await shop.buy('role-worker-1')
    await receiver.waitFor(1, 10_000)
    const delivery = () =>
      db.db
        .selectFrom('webhook_deliveries')
        .select(['status', 'claims', 'next_attempt_at', 'delivered_at', 'webhook_id'])
        .executeTakeFirstOrThrow()
    const claimed = await delivery()
    expect(claimed).toMatchObject({ status: 'pending', claims: 1 })
    const second = await startBuilt(dist, { ROLE: 'worker', ...env })
    await second.waitFor(/workers running/)
    receiver.answerWith(() => ({ status: 200 }))

    first.child.kill('SIGTERM')
    // The grace for attempts in flight (2 s), then the hand-back; the receiver still holds the first
    // attempt (60 s), so the exit came from the hand-back, not from the attempt ending.
    expect(await exitWithin(first, 30_000), first.output()).toBe(0)
    expect(first.output()).toContain('handed back to other workers')
    await receiver.waitFor(2, 10_000)
    expect(receiver.received[1].headers['webhook-id']).toBe(claimed.webhook_id)
    const done = await eventually('the delivery recorded as delivered', delivery, (d) => d.status === 'delivered', { timeoutMs: 30_000 })
    expect(done.claims).toBe(3)
    expect(done.delivered_at!.getTime()).toBeLessThan(new Date(claimed.next_attempt_at!).getTime())
    for (const p of [api, second]) p.child.kill('SIGTERM')
    expect(await exitWithin(second, 15_000), second.output()).toBe(0)
    expect(await exitWithin(api, 15_000), api.output()).toBe(0)
  }, 120_000)
})
