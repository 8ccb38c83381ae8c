import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { openPostgres } from '../src/db/database.js'
import { roleDefaults } from '../src/db/role-defaults.js'
import { buildOnce, startBuilt, type BuiltProcess } from './built-process.js'
import { onPostgres } from './database.js'
import { eventually } from './eventually.js'
import { assertInvariants } from './invariants.js'
import { findPgBouncer, startPgBouncer } from './pgbouncer.js'
import { startReceiver } from './receiver.js'
import { adminCall } from './server-process.js'
import { adminQuery, databaseUrlFor, testDatabaseUrl } from './templates.js'

// The acceptance flow behind PgBouncer in transaction mode (docs/operating.md#pgbouncer): migrated
// through it, then an api and a worker process on it (DATABASE_POOLER=transaction): a top-up, a
// stock lock, 200 concurrent purchases, every webhook delivered by the worker (which polls: no
// DATABASE_LISTEN_URL), and the books add up. PgBouncer ≥ 1.21 comes from .ci/pgbouncer.sh.
const PURCHASES = 200
const found = onPostgres ? findPgBouncer() : { missing: 'PostgreSQL only' }
if (onPostgres && 'missing' in found) console.warn(`test/pgbouncer.test.ts skipped: ${found.missing}`)
const dist = 'bin' in found ? buildOnce('pgbouncer') : ''

const readOnce = async (url: string, statement: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(statement)).rows
  } finally {
    await client.end()
  }
}

describe.skipIf(!('bin' in found))('behind PgBouncer in transaction mode (PostgreSQL, built processes)', () => {
  const closing: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const close of closing.reverse()) await close().catch(() => undefined)
  })

  it('migrates through it; a top-up, a lock, 200 concurrent purchases and their webhooks; balance = ledger; no lost prepared statement', async () => {
    const name = `reseller_pgbouncer_${process.pid}`
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await adminQuery(`CREATE DATABASE ${name}`)
    closing.push(() => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
    const direct = databaseUrlFor(name)
    const bouncer = await startPgBouncer((found as { bin: string }).bin, testDatabaseUrl!, [name])
    closing.push(() => bouncer.close())
    const env = { DATABASE_URL: bouncer.url(name), DATABASE_POOLER: 'transaction', DB_STATEMENT_TIMEOUT_MS: '4000' }

    // The deploy step, through the pooler: migrations, then the role's defaults in this database only.
    const migrate = await startBuilt(dist, { ROLE: 'migrate', ...env })
    expect(await migrate.exited, migrate.output()).toBe(0)
    const database = await openPostgres(direct, 2)
    closing.push(() => database.close())
    expect(await roleDefaults(database.db)).toEqual(['idle_in_transaction_session_timeout=10000', 'jit=off', 'statement_timeout=4000'])
    // A direct connection of the service states its own (none for migrations), whatever the role's.
    expect((await sql<{ statement_timeout: string }>`SHOW statement_timeout`.execute(database.db)).rows[0].statement_timeout).toBe('0')

    const started: BuiltProcess[] = []
    closing.push(async () => started.forEach((p) => p.child.exitCode === null && p.child.signalCode === null && p.child.kill('SIGKILL')))
    const start = async (role: 'api' | 'worker') => {
      const p = await startBuilt(dist, { ROLE: role, ...env, ...(role === 'api' && { DATABASE_LISTEN_URL: direct }) })
      started.push(p)
      await p.waitFor(role === 'api' ? /listening on/ : /workers running/)
      return p
    }
    const [api, worker] = await Promise.all([start('api'), start('worker')])
    const base = api.base

    const item = await adminCall(base, 'POST', '/items', {
      product_name: 'Bouncer',
      name: 'auto',
      price: 1_000,
      order_process: 'auto',
      unlimited_stock: false,
    })
    await adminCall(base, 'POST', `/items/${item.id}/licenses`, {
      licenses: Array.from({ length: PURCHASES + 1 }, (_, i) => `BOUNCER-LIC-${i}`),
    })
    // The operator's writes went through the pooler with the operator set in their own transactions.
    const audited = await sql<{ actor: string }>`SELECT DISTINCT actor FROM audit_log`.execute(database.db)
    expect(audited.rows.map((r) => r.actor)).toEqual(['admin token'])

    const account = await adminCall(base, 'POST', '/resellers', { name: 'bouncer shop' })
    await adminCall(base, 'POST', `/resellers/${account.id}/balance`, { amount: 150_000, reason: 'drill' })
    const headers = { 'x-apikey': account.api_key as string, 'content-type': 'application/json' }
    const call = async (method: string, path: string, body?: object) => {
      const res = await fetch(`${base}/api/v1${path}`, { method, headers, body: body && JSON.stringify(body) })
      const json = (await res.json()) as { data: any }
      return { status: res.status, json }
    }
    const receiver = await startReceiver()
    closing.push(() => receiver.close())
    expect((await call('POST', '/webhook/secret')).status).toBe(200)
    expect((await call('PUT', '/webhook', { callback_url: receiver.url, webhook_enabled: true })).status).toBe(200)

    // A top-up, paid as the operator does.
    await adminCall(base, 'POST', '/channels', { code: 'QRIS', name: 'QRIS', type: 'qris', fee_flat: 750 })
    const topup = await call('POST', '/balance', { amount: 100_000, channel: 'QRIS' })
    expect(topup.status, JSON.stringify(topup.json)).toBe(200)
    expect(await adminCall(base, 'POST', `/topups/${topup.json.data.reference}/pay`)).toMatchObject({ status: 'paid', credited: true })

    // A lock, then the purchase that uses it.
    const lock = await call('POST', '/item/lock', { item_id: item.id, quantity: 1 })
    expect(lock.status, JSON.stringify(lock.json)).toBe(201)
    const locked = await call('POST', '/trx', {
      ref_id: 'bouncer-lock',
      lock_token: lock.json.data.lock_token,
      carts: [{ item_id: item.id, quantity: 1 }],
    })
    expect(locked.status, JSON.stringify(locked.json)).toBe(200)

    const buys = await Promise.all(
      Array.from({ length: PURCHASES }, (_, i) =>
        call('POST', '/trx', { ref_id: `bouncer-${i}`, carts: [{ item_id: item.id, quantity: 1 }] }),
      ),
    )
    expect(buys.filter((b) => b.status !== 200).map((b) => b.json)).toEqual([])
    expect((await call('GET', '/balance')).json.data.balance).toBe(250_000 - (PURCHASES + 1) * 1_000)

    // Every order's events reach the receiver, relayed by the worker with no LISTEN (it polls).
    const refs = ['bouncer-lock', ...Array.from({ length: PURCHASES }, (_, i) => `bouncer-${i}`)]
    const heard = () => new Set(receiver.received.map((c) => `${c.json?.data?.ref_id} ${c.json?.event}`))
    await eventually(
      'every order event delivered',
      heard,
      (events) => refs.every((ref) => events.has(`${ref} order.paid`) && events.has(`${ref} order.completed`)),
      {
        timeoutMs: 90_000,
        intervalMs: 200,
      },
    )

    await assertInvariants(database.db)
    // The named statements went through PgBouncer (it parsed them for its clients), and none was lost.
    const stats = await readOnce(bouncer.admin, 'SHOW STATS')
    expect(Number(stats.find((s) => s.database === name)?.total_client_parse_count)).toBeGreaterThan(0)
    for (const p of [api, worker]) p.child.kill('SIGTERM')
    for (const p of [api, worker]) expect(await p.exited, p.output()).toBe(0)
    const logs = [api, worker, migrate].map((p) => p.output()).join('\n') + bouncer.output()
    expect(logs).not.toMatch(/prepared statement .* does not exist|unsupported startup parameter/)
  }, 240_000)
})
