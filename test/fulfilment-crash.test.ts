import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cloneTestDatabase, onPostgres } from './database.js'
import { eventually } from './eventually.js'
import { assertInvariants } from './invariants.js'
import { adminCall, startServerProcess, type ServerProcess } from './server-process.js'
import { startUpstreams, type Upstreams } from './upstreams.js'

// docs/design.md §5: a crash between sending upstream and recording the answer never makes a second upstream order.
describe.skipIf(!onPostgres)('SIGKILL between dispatch and result (PostgreSQL, real server processes)', () => {
  const children: ServerProcess[] = []
  let database: Awaited<ReturnType<typeof cloneTestDatabase>>
  let up: Upstreams
  beforeAll(async () => {
    database = await cloneTestDatabase()
    up = await startUpstreams()
  })
  afterAll(async () => {
    children.forEach((s) => s.child.kill('SIGKILL'))
    await up.close()
    await database.close()
  })

  it('the h2h request is re-checked with its ref_id; the smm add goes to review, never sent twice', async () => {
    const env = { DATABASE_URL: database.url!, PROVIDER_TIMEOUT_MS: '3000', DB_STATEMENT_TIMEOUT_MS: '1000', PROVIDER_POLL_SECONDS: '1' }
    const first = await startServerProcess(env)
    children.push(first)
    await adminCall(first.base, 'POST', '/providers', {
      code: 'crash-h2h',
      kind: 'digiflazz',
      base_url: `${up.base}/digiflazz/v1`,
      username: 'demo',
      api_key: 'demo-key',
    })
    await adminCall(first.base, 'POST', '/providers', {
      code: 'crash-smm',
      kind: 'smm_panel',
      base_url: `${up.base}/smm/api/v2`,
      api_key: 'demo-key',
    })
    const h2h = await adminCall(first.base, 'POST', '/items', {
      product_name: 'Crash',
      name: 'h2h',
      price: 5_000,
      order_process: 'h2h',
      unlimited_stock: true,
      provider: 'crash-h2h',
      provider_code: 'ml86',
    })
    const smm = await adminCall(first.base, 'POST', '/items', {
      product_name: 'Crash',
      name: 'smm',
      price: 100,
      order_process: 'smm',
      unlimited_stock: true,
      provider: 'crash-smm',
      provider_code: '3',
    })
    const account = await adminCall(first.base, 'POST', '/resellers', { name: 'crash upstream' })
    await adminCall(first.base, 'POST', `/resellers/${account.id}/balance`, { amount: 100_000, reason: 'crash test' })

    // The provider takes both requests and answers neither before the server dies.
    up.hang = true
    const res = await fetch(`${first.base}/api/v1/trx`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-apikey': account.api_key },
      body: JSON.stringify({
        ref_id: 'crash-upstream',
        carts: [
          { item_id: h2h.id, quantity: 1, note: '081277777771' },
          { item_id: smm.id, quantity: 10, note: 'https://x/crash1' },
        ],
      }),
    })
    expect(res.status).toBe(200)
    await eventually(
      'both requests reached the provider',
      async () => up.held,
      (n) => n >= 2,
    )
    first.child.kill('SIGKILL')
    await first.exited
    up.hang = false

    const second = await startServerProcess(env)
    children.push(second)
    const trx = () =>
      fetch(`${second.base}/api/v1/trx/crash-upstream`, { headers: { 'x-apikey': account.api_key } }).then((r) => r.json() as Promise<any>)
    const review = await eventually(
      'the smm add is in review',
      () => adminCall(second.base, 'GET', '/dispatches?status=review'),
      (rows: any[]) => rows.length > 0,
    )
    expect(review).toHaveLength(1)
    expect(review[0]).toMatchObject({ kind: 'smm_panel', provider: 'crash-smm', upstream_order_id: null })
    const settledH2h = await eventually('the h2h request settled', trx, (body) => body.h2h_results[0]?.dispatch_status === 'completed')
    expect(settledH2h.data.items.map((i: any) => i.status)).toEqual(['completed', 'processing'])
    const [ref] = up.digiflazz.requests.filter((q) => q.customer_no === '081277777771').map((q) => q.ref_id)
    expect(up.digiflazz.requests.filter((q) => q.customer_no === '081277777771')).toEqual([
      { ref_id: ref, customer_no: '081277777771', buyer_sku_code: 'ml86' },
    ])
    expect(ref).toMatch(/-1-1$/)
    expect(up.smm.adds).toEqual([])

    // The operator finds nothing at the panel: failed, refunded once; the order completes with the h2h line.
    await adminCall(second.base, 'POST', `/dispatches/${review[0].id}/resolve`, { outcome: 'failed', reason: 'not at the panel' })
    const body = await trx()
    expect(body.data.status).toBe('completed')
    expect(body.smm_results[0]).toMatchObject({ status: 'Canceled', refund_amount: 1_000 })
    expect(up.smm.adds).toEqual([])
    await assertInvariants(database.db)
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  })
})
