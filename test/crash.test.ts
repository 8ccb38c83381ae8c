import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cloneTestDatabase, onPostgres } from './database.js'
import { until } from './eventually.js'
import { assertInvariants } from './invariants.js'
import { adminCall, startServerProcess, type ServerProcess } from './server-process.js'

// A purchase acknowledged with 200 must survive a crash; one in flight must be all or nothing.
describe.skipIf(!onPostgres)('crash during a purchase load (PostgreSQL)', () => {
  const children: ServerProcess[] = []
  let database: Awaited<ReturnType<typeof cloneTestDatabase>>
  beforeAll(async () => {
    database = await cloneTestDatabase()
  })
  afterAll(async () => {
    children.forEach((s) => s.child.kill('SIGKILL'))
    await database.close()
  })

  it('SIGKILL mid-load, restart: invariants hold, every acknowledged purchase is there and no paid order is stranded', async () => {
    const first = await startServerProcess({ DATABASE_URL: database.url! })
    children.push(first)
    const resellers = await Promise.all(
      [0, 1, 2, 3].map(async (i) => {
        const account = await adminCall(first.base, 'POST', '/resellers', { name: `crash ${i}` })
        await adminCall(first.base, 'POST', `/resellers/${account.id}/balance`, { amount: 50_000_000, reason: 'crash test' })
        return account.api_key as string
      }),
    )
    const items = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const item = await adminCall(first.base, 'POST', '/items', {
          product_name: 'Crash',
          name: `crash ${i}`,
          price: 1_000 + i,
          order_process: 'auto',
        })
        await adminCall(first.base, 'POST', `/items/${item.id}/licenses`, {
          licenses: Array.from({ length: 400 }, (_, n) => `CRASH-${i}-${n}`),
        })
        return item.id as number
      }),
    )
    const manual = await adminCall(first.base, 'POST', '/items', {
      product_name: 'Crash',
      name: 'manual',
      price: 500,
      order_process: 'manual',
      stock: 100,
    })

    const acknowledged: { key: string; ref: string }[] = []
    let sent = 0
    let killed = false
    const worker = async (w: number) => {
      while (!killed) {
        const key = resellers[w % resellers.length]
        const ref = `crash-${w}-${++sent}`
        const item = sent % 5 === 0 ? manual.id : items[sent % items.length]
        try {
          const res = await fetch(`${first.base}/api/v1/trx`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-apikey': key },
            body: JSON.stringify({ ref_id: ref, carts: [{ item_id: item, quantity: 1 }] }),
          })
          if (res.status === 200) acknowledged.push({ key, ref })
          else expect([400, 422]).toContain(res.status)
        } catch {
          return // the connection died with the server
        }
      }
    }
    const load = Promise.all(Array.from({ length: 24 }, (_, w) => worker(w)))
    await until('150 purchases acknowledged', () => acknowledged.length >= 150, { timeoutMs: 120_000, intervalMs: 10 })
    first.child.kill('SIGKILL')
    killed = true
    await first.exited
    await load

    const second = await startServerProcess({ DATABASE_URL: database.url! })
    children.push(second)
    for (const { key, ref } of acknowledged) {
      const res = await fetch(`${second.base}/api/v1/trx/${encodeURIComponent(ref)}`, { headers: { 'x-apikey': key } })
      expect(res.status, ref).toBe(200)
      const body = (await res.json()) as { data: { status: string } }
      expect(['completed', 'paid']).toContain(body.data.status)
    }
    await assertInvariants(database.db, { [manual.id]: 100 })
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM orders o WHERE status = 'paid'
      AND EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = o.id AND l.order_process = 'auto' AND l.status <> 'delivered')`.execute(
      database.db,
    )
    expect(rows[0].n).toBe(0)
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  })
})
