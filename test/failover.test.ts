import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from './app.js'
import { admin, createReseller, get, type Reseller } from './factory.js'
import { balanceOf, buy } from './factory-orders.js'
import { signedIn } from './console.js'
import { assertInvariants } from './invariants.js'
import { freePort } from './server-process.js'
import { addSimulatedProviders, itemWithSources, startUpstreams, type Source } from './upstreams.js'

// Failover between an item's sources (docs/design.md §11b) against the simulators over real HTTP: two
// Digiflazz providers and two panels on one simulator, steered per product (skuSteering,
// refusedServices), one provider on a port nobody listens on, one on a simulator that hangs.
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '1500' })
const up = await startUpstreams()
const hung = await startUpstreams()
hung.hang = true
afterAll(async () => {
  await up.close()
  await hung.close()
})
await addSimulatedProviders(app, up)
const digiflazz = (code: string, base: string) =>
  admin(app, 'POST', '/providers', { code, kind: 'digiflazz', base_url: `${base}/digiflazz/v1`, username: 'demo', api_key: 'demo-key' })
await digiflazz('dgf2', up.base)
await digiflazz('dgf-down', `http://127.0.0.1:${await freePort()}`)
await digiflazz('dgf-hung', hung.base)
await admin(app, 'POST', '/providers', { code: 'panel2', kind: 'smm_panel', base_url: `${up.base}/smm/api/v2`, api_key: 'demo-key' })
for (const code of ['dgf', 'dgf2', 'panel', 'panel2']) await admin(app, 'POST', `/providers/${code}/sync?force=true`)

const itemWith = (process: 'h2h' | 'smm', sources: Source[]) => itemWithSources(app, ctx.db, process, sources)

const dispatch = () => ctx.fulfilment.upstream.runOnce()
async function due() {
  await sql`UPDATE dispatches SET next_attempt_at = now() WHERE status IN ('pending', 'queued')`.execute(ctx.db)
}
async function bought(r: Reseller, ref: string, carts: { item_id: number; quantity: number; note?: string }[]) {
  const res = await buy(app, r, ref, carts)
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data as { id: number; amount: number }
}
const requestsOf = (orderId: number) =>
  ctx.db
    .selectFrom('dispatches')
    .select(['id', 'seq', 'provider', 'provider_code', 'upstream_ref', 'status', 'refund_amount', 'message', 'cost', 'failover_of'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute()
const refundsOf = (orderId: number) =>
  ctx.db.selectFrom('ledger_entries').select('amount').where('order_id', '=', orderId).where('type', '=', 'refund').execute()
const sentTo = (customer: string) =>
  up.digiflazz.requests.filter((q) => q.customer_no === customer).map((q) => `${q.buyer_sku_code} ${q.ref_id}`)

const h2h = await itemWith('h2h', [
  { provider: 'dgf', code: 'ml86', priority: 1 },
  { provider: 'dgf2', code: 'ml172', priority: 2 },
])

describe('failover between an item’s sources', () => {
  it('a Gagal at the first source goes to the next under a new ref: delivered there, debited once, nothing refunded', async () => {
    up.digiflazz.skuSteering.set('ml86', 'fail')
    try {
      const r = await createReseller(app, { balance: 50_000 })
      const order = await bought(r, 'fo-next', [{ item_id: h2h.id, quantity: 1, note: '081255500001' }])
      await dispatch()
      const [failed, next] = await requestsOf(order.id)
      expect(failed).toMatchObject({
        provider: 'dgf',
        provider_code: 'ml86',
        status: 'failed',
        refund_amount: 0,
        cost: 19_500,
        failover_of: null,
      })
      expect(failed!.message).toBe('failed over to dgf2: Nomor tujuan salah')
      // The worker's pass sends the new request too (the failover rang the dispatch bell).
      expect(next).toMatchObject({ provider: 'dgf2', provider_code: 'ml172', cost: 38_900, failover_of: failed!.id })
      expect(next!.upstream_ref).toBe(`${failed!.upstream_ref}-F1`)
      await dispatch()
      expect((await requestsOf(order.id)).map((d) => d.status)).toEqual(['failed', 'completed'])
      expect(sentTo('081255500001')).toEqual([`ml86 ${failed!.upstream_ref}`, `ml172 ${failed!.upstream_ref}-F1`])
      const body = (await get(app, '/trx/fo-next', r)).json()
      expect(body.data.status).toBe('completed')
      // The reseller sees the request that served the line, not the one that failed over.
      expect(body.h2h_results).toEqual([expect.objectContaining({ dispatch_status: 'completed', h2h_provider: 'dgf2' })])
      expect(await balanceOf(app, r)).toBe(50_000 - h2h.price)
      expect(await refundsOf(order.id)).toEqual([])
      // The operator sees both, with the source and the cost of each.
      expect((await admin(app, 'GET', `/transactions/${order.id}`)).requests).toEqual([
        expect.objectContaining({
          provider: 'dgf',
          provider_code: 'ml86',
          status: 'failed',
          cost: 19_500,
          refund_amount: 0,
          failover_of: null,
        }),
        expect.objectContaining({ provider: 'dgf2', provider_code: 'ml172', status: 'completed', cost: 38_900, failover_of: failed!.id }),
      ])
      const page = await (await signedIn(app)).get(`/console/orders/${order.id}`)
      expect(page.body).toContain('failed over to dgf2: Nomor tujuan salah')
      expect(page.body).toMatch(/dgf2 · <code>ml172<\/code>/)
    } finally {
      up.digiflazz.skuSteering.clear()
    }
  })

  it('when every source fails the line is refunded exactly once', async () => {
    up.digiflazz.skuSteering.set('ml86', 'fail').set('ml172', 'fail')
    try {
      const r = await createReseller(app, { balance: 100_000 })
      const order = await bought(r, 'fo-all', [{ item_id: h2h.id, quantity: 2, note: '081255500002' }])
      await dispatch()
      await dispatch()
      const requests = await requestsOf(order.id)
      expect(requests.map((d) => `${d.provider} ${d.status} ${d.refund_amount}`)).toEqual([
        'dgf failed 0',
        'dgf failed 0',
        `dgf2 failed ${h2h.price}`,
        `dgf2 failed ${h2h.price}`,
      ])
      // A third look finds nothing left to send.
      await due()
      await dispatch()
      expect(await requestsOf(order.id)).toHaveLength(4)
      expect((await get(app, '/trx/fo-all', r)).json().data.status).toBe('canceled')
      expect(await refundsOf(order.id)).toEqual([{ amount: 2 * h2h.price }])
      expect(await balanceOf(app, r)).toBe(100_000)
    } finally {
      up.digiflazz.skuSteering.clear()
    }
  })

  it('an ambiguous answer never fails over: rc 49 and HTTP 500 stay pending at the same source', async () => {
    for (const [steer, note] of [
      ['known', '081255500003'],
      ['http500', '081255500004'],
    ] as const) {
      up.digiflazz.skuSteering.set('ml86', steer)
      try {
        const r = await createReseller(app, { balance: 50_000 })
        const order = await bought(r, `fo-${steer}`, [{ item_id: h2h.id, quantity: 1, note }])
        await dispatch()
        await due()
        await dispatch()
        expect((await requestsOf(order.id)).map((d) => `${d.provider} ${d.status}`)).toEqual(['dgf pending'])
        expect(sentTo(note).every((s) => s.startsWith('ml86 '))).toBe(true)
        expect(await balanceOf(app, r)).toBe(50_000 - h2h.price)
      } finally {
        up.digiflazz.skuSteering.clear()
      }
    }
  })

  it('a timeout never fails over', async () => {
    const item = await itemWith('h2h', [
      { provider: 'dgf-hung', code: 'ml86', priority: 1 },
      { provider: 'dgf', code: 'ml172', priority: 2 },
    ])
    const r = await createReseller(app, { balance: 50_000 })
    const order = await bought(r, 'fo-timeout', [{ item_id: item.id, quantity: 1, note: '081255500005' }])
    await dispatch()
    expect((await requestsOf(order.id)).map((d) => `${d.provider} ${d.status}`)).toEqual(['dgf-hung pending'])
    expect(sentTo('081255500005')).toEqual([])
  })

  it('a refused connection on the first send fails over; with no other source it stays pending, never refunded', async () => {
    const item = await itemWith('h2h', [
      { provider: 'dgf-down', code: 'ml86', priority: 1 },
      { provider: 'dgf', code: 'ml172', priority: 2 },
    ])
    const r = await createReseller(app, { balance: 100_000 })
    const order = await bought(r, 'fo-refused', [{ item_id: item.id, quantity: 1, note: '081255500006' }])
    await dispatch()
    await dispatch()
    const [failed, next] = await requestsOf(order.id)
    expect(failed).toMatchObject({ provider: 'dgf-down', status: 'failed', refund_amount: 0 })
    expect(failed!.message).toMatch(/^failed over to dgf: provider unreachable: connection refused/)
    expect(next).toMatchObject({ provider: 'dgf', status: 'completed', failover_of: failed!.id })

    const alone = await itemWith('h2h', [{ provider: 'dgf-down', code: 'ml86', priority: 1 }])
    const lone = await bought(r, 'fo-refused-alone', [{ item_id: alone.id, quantity: 1, note: '081255500007' }])
    await dispatch()
    await due()
    await dispatch()
    expect((await requestsOf(lone.id)).map((d) => `${d.provider} ${d.status} ${d.refund_amount}`)).toEqual(['dgf-down pending 0'])
    expect(await refundsOf(lone.id)).toEqual([])
  })

  it('an smm add the panel refuses goes to the next panel', async () => {
    const item = await itemWith('smm', [
      { provider: 'panel', code: '1', priority: 1 },
      { provider: 'panel2', code: '2', priority: 2 },
    ])
    up.smm.refusedServices.add('1')
    try {
      const r = await createReseller(app, { balance: 50_000 })
      const order = await bought(r, 'fo-smm', [{ item_id: item.id, quantity: 100, note: 'https://instagram.com/failover1' }])
      await dispatch()
      await dispatch()
      const [failed, next] = await requestsOf(order.id)
      expect(failed).toMatchObject({
        provider: 'panel',
        status: 'failed',
        refund_amount: 0,
        message: 'failed over to panel2: Service is disabled',
      })
      // The cost at the panel: its rate per 1,000 (0.35 for service 2) for 100, rounded up.
      expect(next).toMatchObject({ provider: 'panel2', provider_code: '2', status: 'pending', cost: 1, failover_of: failed!.id })
      await due()
      await ctx.fulfilment.smmPoller.runOnce()
      expect((await requestsOf(order.id)).map((d) => d.status)).toEqual(['failed', 'completed'])
      expect(await balanceOf(app, r)).toBe(50_000 - 100 * item.price)
      expect(await refundsOf(order.id)).toEqual([])
    } finally {
      up.smm.refusedServices.clear()
    }
  })

  it('a request the operator resolves as failed is refunded, never failed over', async () => {
    await admin(app, 'POST', '/providers', {
      code: 'panel-hung',
      kind: 'smm_panel',
      base_url: `${hung.base}/smm/api/v2`,
      api_key: 'demo-key',
    })
    const item = await itemWith('smm', [
      { provider: 'panel-hung', code: '1', priority: 1 },
      { provider: 'panel', code: '2', priority: 2 },
    ])
    const r = await createReseller(app, { balance: 50_000 })
    const order = await bought(r, 'fo-review', [{ item_id: item.id, quantity: 100, note: 'https://instagram.com/failover2' }])
    await dispatch()
    const [inReview] = await requestsOf(order.id)
    expect(inReview).toMatchObject({ provider: 'panel-hung', status: 'review' })
    await admin(app, 'POST', `/dispatches/${inReview!.id}/resolve`, { outcome: 'failed', reason: 'not at the panel' })
    expect((await requestsOf(order.id)).map((d) => `${d.provider} ${d.status} ${d.refund_amount}`)).toEqual([
      `panel-hung failed ${100 * item.price}`,
    ])
    expect(await refundsOf(order.id)).toEqual([{ amount: 100 * item.price }])
    expect(await balanceOf(app, r)).toBe(50_000)
  })

  it('an operator cancel voids a request queued after a failover: the line is refunded once', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    const order = await bought(r, 'fo-cancel', [{ item_id: h2h.id, quantity: 1, note: '081255500008' }])
    // The worker's claim and its Gagal answer, recorded as the worker records it, with no worker to send what follows.
    const [sent] = await requestsOf(order.id)
    await sql`UPDATE dispatches SET status = 'pending', attempts = 1 WHERE id = ${sent!.id}`.execute(ctx.db)
    const answer = {
      id: sent!.id,
      from_states: ['pending'],
      status: 'failed',
      refund: 'full',
      message: 'Nomor tujuan salah',
      failover: 'or_refund',
    }
    await sql`SELECT record_upstream_answers(${JSON.stringify([answer])}::jsonb)`.execute(ctx.db)
    expect((await requestsOf(order.id)).map((d) => `${d.provider} ${d.status}`)).toEqual(['dgf failed', 'dgf2 queued'])

    await admin(app, 'POST', `/transactions/${order.id}/cancel`, { reason: 'customer asked' })
    expect((await requestsOf(order.id)).map((d) => `${d.provider} ${d.status} ${d.refund_amount}`)).toEqual([
      'dgf failed 0',
      `dgf2 void ${h2h.price}`,
    ])
    expect(await refundsOf(order.id)).toEqual([{ amount: h2h.price }])
    expect(await balanceOf(app, r)).toBe(50_000)
  })

  it('each unit keeps one chain: at most one request per original that has not failed over, and the books add up', async () => {
    const { rows } = await sql<{ id: number }>`
      SELECT d.id FROM dispatches d
       WHERE (SELECT count(*) FROM dispatches f WHERE f.failover_of = d.id) > 1
          OR (d.failover_of IS NOT NULL AND (SELECT status FROM dispatches p WHERE p.id = d.failover_of) <> 'failed')`.execute(ctx.db)
    expect(rows).toEqual([])
    await assertInvariants(ctx.db)
  })
})
