import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from './app.js'
import { admin, createReseller, get } from './factory.js'
import { balanceOf, buy } from './factory-orders.js'
import { assertInvariants } from './invariants.js'
import { addSimulatedProviders, itemWithSources, startUpstreams } from './upstreams.js'
import { readDueBalances } from '../src/modules/fulfilment/index.js'

// Supplier balances (docs/design.md §11e) against the simulators over real HTTP: `dgf` and `dgf2` are
// two Digiflazz accounts (two simulators, two deposits), `panel` an SMM panel. Targets end in 1: the
// simulators' steering delivers them (simulator-steering.ts).
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '1500' })
const up = await startUpstreams()
const up2 = await startUpstreams()
afterAll(async () => {
  await up.close()
  await up2.close()
})
await addSimulatedProviders(app, up)
await admin(app, 'POST', '/providers', {
  code: 'dgf2',
  kind: 'digiflazz',
  base_url: `${up2.base}/digiflazz/v1`,
  username: 'demo',
  api_key: 'demo-key',
})
for (const code of ['dgf', 'dgf2']) await admin(app, 'POST', `/providers/${code}/sync?force=true`)

// h2h items served by dgf (ml86) first, then dgf2 (ml172), and by dgf alone.
const both = (
  await itemWithSources(app, ctx.db, 'h2h', [
    { provider: 'dgf', code: 'ml86', priority: 1 },
    { provider: 'dgf2', code: 'ml172', priority: 2 },
  ])
).id
const dgfOnly = (await itemWithSources(app, ctx.db, 'h2h', [{ provider: 'dgf', code: 'ml86', priority: 1 }])).id

const dispatch = () => ctx.fulfilment.upstream.runOnce()
const refresh = (code: string) => admin(app, 'POST', `/providers/${code}/balance/refresh`)
const requestsOf = (orderId: number) =>
  ctx.db.selectFrom('dispatches').select(['provider', 'status', 'cost']).where('order_id', '=', orderId).orderBy('id').execute()
const sentTo = (sim: typeof up, customer: string) => sim.digiflazz.requests.filter((q) => q.customer_no === customer).length

describe('supplier balances', () => {
  it('reads Digiflazz’s deposit and a panel’s balance; GET answers the last read, the 24 h spend and the hours left', async () => {
    up.digiflazz.deposit.amount = 5_000_000
    up.smm.balance.amount = '12.5'
    up.smm.balance.currency = 'USD'
    // The worker's pass reads every provider whose last read is older than the interval (none read yet).
    expect(await readDueBalances(ctx.db, ctx.vault, { everyMs: 60_000, timeoutMs: 2_000 })).toBe(3)
    expect(await readDueBalances(ctx.db, ctx.vault, { everyMs: 60_000, timeoutMs: 2_000 })).toBe(0)
    expect(await admin(app, 'GET', '/providers/dgf/balance')).toMatchObject({
      provider: 'dgf',
      balance: 5_000_000,
      currency: 'IDR',
      error: null,
      spent_24h: 0,
      hours_left: null,
    })
    expect(await admin(app, 'GET', '/providers/panel/balance')).toMatchObject({ balance: 12.5, currency: 'USD', hours_left: null })

    const r = await createReseller(app, { balance: 100_000 })
    const order = (await buy(app, r, 'bal-spend', [{ item_id: both, quantity: 1, note: '081277700001' }])).json().data
    await dispatch()
    const [request] = await requestsOf(order.id)
    expect(request).toMatchObject({ provider: 'dgf', status: 'completed' })
    // The simulator paid it from the deposit; the next read says so, and the hours left follow the day's spend.
    const read = await refresh('dgf')
    expect(read.balance).toBe(5_000_000 - request!.cost!)
    expect(read.spent_24h).toBe(request!.cost)
    expect(read.hours_left).toBe(Math.floor(((5_000_000 - request!.cost!) / request!.cost!) * 24 * 10) / 10)
  })

  it('routes to the first source whose known balance pays for the request; with none, 503 and nothing debited', async () => {
    up.digiflazz.deposit.amount = 100
    up2.digiflazz.deposit.amount = 5_000_000
    await refresh('dgf')
    await refresh('dgf2')
    const r = await createReseller(app, { balance: 100_000 })
    const order = (await buy(app, r, 'bal-route', [{ item_id: both, quantity: 1, note: '081277700021' }])).json().data
    await dispatch()
    expect(await requestsOf(order.id)).toEqual([expect.objectContaining({ provider: 'dgf2', status: 'completed' })])
    expect(sentTo(up, '081277700021')).toBe(0)

    const before = await balanceOf(app, r)
    const refused = await buy(app, r, 'bal-none', [{ item_id: dgfOnly, quantity: 1, note: '081277700031' }])
    expect([refused.statusCode, refused.json().message]).toEqual([503, 'PRODUCT_TEMPORARILY_UNAVAILABLE'])
    expect(await balanceOf(app, r)).toBe(before)
    expect((await get(app, '/trx/bal-none', r)).statusCode).toBe(404)
    await assertInvariants(ctx.db)
  })

  it('rc 44 reads the balance at once and fails over; a queued request waits until a read says its provider can pay', async () => {
    // Known to be enough, then spent elsewhere: the request goes to dgf, which answers rc 44.
    up.digiflazz.deposit.amount = 5_000_000
    up2.digiflazz.deposit.amount = 5_000_000
    await refresh('dgf')
    up.digiflazz.deposit.amount = 10
    const r = await createReseller(app, { balance: 200_000 })
    const order = (await buy(app, r, 'bal-44', [{ item_id: both, quantity: 1, note: '081277700041' }])).json().data
    await dispatch()
    expect((await admin(app, 'GET', '/providers/dgf/balance')).balance).toBe(10)
    await dispatch()
    expect((await requestsOf(order.id)).map((d) => `${d.provider} ${d.status}`)).toEqual(['dgf failed', 'dgf2 completed'])

    // Queued while dgf could pay; a read before it is sent says it cannot: it waits, nothing goes to dgf.
    up.digiflazz.deposit.amount = 5_000_000
    await refresh('dgf')
    const waiting = (await buy(app, r, 'bal-wait', [{ item_id: dgfOnly, quantity: 1, note: '081277700051' }])).json().data
    up.digiflazz.deposit.amount = 10
    await refresh('dgf')
    await dispatch()
    expect(await requestsOf(waiting.id)).toEqual([expect.objectContaining({ provider: 'dgf', status: 'queued' })])
    expect(sentTo(up, '081277700051')).toBe(0)
    // The operator tops the deposit up; the next read lets it go.
    up.digiflazz.deposit.amount = 5_000_000
    await refresh('dgf')
    await sql`UPDATE dispatches SET next_attempt_at = now() WHERE order_id = ${waiting.id}`.execute(ctx.db)
    await dispatch()
    expect(await requestsOf(waiting.id)).toEqual([expect.objectContaining({ provider: 'dgf', status: 'completed' })])
    expect(sentTo(up, '081277700051')).toBe(1)
    await assertInvariants(ctx.db)
  })

  it('a provider that does not answer keeps its last good read and says why', async () => {
    const good = await refresh('dgf')
    up.hang = true
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/admin/v1/providers/dgf/balance/refresh',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })
      expect(res.statusCode).toBe(200)
      expect(res.json().data).toMatchObject({ balance: good.balance, read_at: good.read_at, error: 'the provider gave no usable answer' })
    } finally {
      up.hang = false
    }
  })
})
