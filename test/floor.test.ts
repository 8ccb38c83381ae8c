import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from './app.js'
import { admin, createItem, createReseller, get, type Reseller } from './factory.js'
import { balanceOf, buy } from './factory-orders.js'
import { assertInvariants } from './invariants.js'
import { recordMinMargin } from '../src/modules/suppliers/index.js'
import { addSimulatedProvider, addSimulatedProviders, startUpstreams } from './upstreams.js'

// The floor (docs/design.md §11c) against the Digiflazz simulator over real HTTP: two providers on one
// simulator's list, a store floor of Rp 500 (MIN_MARGIN), items priced around their sources' costs
// (ml86 19,500; ml172 38,900; tsel10 10,150; tsel25 24,900; pln20 20,150; ff140 18,200). A target
// ending in 2, 3 or 4 steers the simulator's answer: the ones here end otherwise.
const { app, ctx } = await createTestApp({ MIN_MARGIN: '500' })
const up = await startUpstreams()
afterAll(() => up.close())
await addSimulatedProviders(app, up, { panel: false })
// A second provider on the same simulator: two sources of one product at different prices.
await addSimulatedProvider(app, up, 'digiflazz', 'dgf2')
const prepaid = up.digiflazz.priceLists.prepaid
const sync = async () => {
  for (const code of ['dgf', 'dgf2']) await admin(app, 'POST', `/providers/${code}/sync?force=true`)
}
await sync()

type Source = { provider: string; code: string; priority: number }
/** An unlimited h2h item at `price` bought from these sources (no pricing rule: the price stays, raised to the cost). */
async function itemWith(price: number, sources: Source[], fields: Record<string, unknown> = {}) {
  const item = await createItem(app, {
    order_process: 'h2h',
    price,
    unlimited_stock: true,
    provider: sources[0]!.provider,
    provider_code: sources[0]!.code,
    ...fields,
  })
  await admin(app, 'PUT', `/items/${item.id}/sources`, { sources })
  return item.id as number
}
const pricey = (code = 'ml86') => [
  { provider: 'dgf', code, priority: 1 },
  { provider: 'dgf2', code: 'ml172', priority: 2 },
]

const dispatch = () => ctx.fulfilment.upstream.runOnce()
const due = () => sql`UPDATE dispatches SET next_attempt_at = now() WHERE status IN ('pending', 'queued')`.execute(ctx.db)
const requestsOf = (orderId: number) =>
  ctx.db
    .selectFrom('dispatches')
    .select(['provider', 'provider_code', 'status', 'refund_amount', 'amount', 'cost', 'max_cost'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute()
const refundsOf = (orderId: number) =>
  ctx.db.selectFrom('ledger_entries').select('amount').where('order_id', '=', orderId).where('type', '=', 'refund').execute()
const sentTo = (customer: string) => up.digiflazz.requests.filter((q) => q.customer_no === customer).map((q) => q.buyer_sku_code)
const itemRow = (id: number) =>
  ctx.db
    .selectFrom('items')
    .select(['price', 'cost', 'price_locked', 'min_margin', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
const catalogStatus = async (r: Reseller, id: number) => (await get(app, `/item/${id}`, r)).json().data.status as string

async function bought(r: Reseller, ref: string, itemId: number, note: string) {
  const res = await buy(app, r, ref, [{ item_id: itemId, quantity: 1, note }])
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data as { id: number }
}

/** Buys one with the first source failing definitely; answers the order's requests after the worker's passes. */
async function boughtWithFirstFailing(r: Reseller, ref: string, itemId: number, note: string, failing = 'ml86') {
  up.digiflazz.skuSteering.set(failing, 'fail')
  try {
    const order = await bought(r, ref, itemId, note)
    await dispatch()
    await dispatch()
    await due()
    await dispatch()
    return { order, requests: await requestsOf(order.id) }
  } finally {
    up.digiflazz.skuSteering.clear()
  }
}

const wib = (minutes: number) => {
  const d = new Date(Date.now() + (7 * 60 + minutes) * 60_000)
  return `${d.getUTCHours()}:${d.getUTCMinutes()}`
}

describe('the floor: nothing sells below cost + min_margin unless the item allows a loss', () => {
  it('failover skips a source beyond the floor at the price paid: nothing sent there, the line refunded once', async () => {
    const id = await itemWith(20_000, pricey())
    const r = await createReseller(app, { balance: 50_000 })
    const { order, requests } = await boughtWithFirstFailing(r, 'fl-skip', id, '081255600001')
    // The most the request may cost: 20,000 paid less the store's floor margin of 500.
    expect(requests).toEqual([
      { provider: 'dgf', provider_code: 'ml86', status: 'failed', refund_amount: 20_000, amount: 20_000, cost: 19_500, max_cost: 19_500 },
    ])
    expect(sentTo('081255600001')).toEqual(['ml86'])
    expect(await refundsOf(order.id)).toEqual([{ amount: 20_000 }])
    expect(await balanceOf(app, r)).toBe(50_000)
    expect((await get(app, '/trx/fl-skip', r)).json().data.status).toBe('canceled')
  })

  it('failover goes to a pricier source that keeps the floor, and the new request keeps the bound', async () => {
    const id = await itemWith(40_000, pricey())
    const r = await createReseller(app, { balance: 50_000 })
    const { order, requests } = await boughtWithFirstFailing(r, 'fl-within', id, '081255600011')
    expect(requests.map((d) => [d.provider_code, d.status, d.cost, d.max_cost])).toEqual([
      ['ml86', 'failed', 19_500, 39_500],
      ['ml172', 'completed', 38_900, 39_500],
    ])
    expect(sentTo('081255600011')).toEqual(['ml86', 'ml172'])
    expect(await refundsOf(order.id)).toEqual([])
    expect(await balanceOf(app, r)).toBe(10_000)
  })

  it('MIN_MARGIN applies where no rule covers the item; an item rule’s min_margin replaces it, on a locked price too', async () => {
    // 38,900 + 500 passes 39,000: ml172 is beyond the store's floor.
    const id = await itemWith(39_000, pricey())
    await admin(app, 'PATCH', `/items/${id}`, { price: 39_000 })
    const r = await createReseller(app, { balance: 100_000 })
    const first = await boughtWithFirstFailing(r, 'fl-store', id, '081255600021')
    expect(first.requests.map((d) => [d.provider_code, d.status, d.max_cost])).toEqual([['ml86', 'failed', 38_500]])

    const rule = (
      await admin(app, 'PUT', '/pricing-rules', { scope: 'item', item_id: id, percent: 0, flat: 0, round_to: 1, min_margin: 0 })
    ).rule
    expect(await itemRow(id)).toMatchObject({ price: 39_000, price_locked: true, min_margin: 0 })
    expect(await admin(app, 'GET', `/items/${id}`)).toMatchObject({ price: 39_000, price_locked: true, allow_loss: false, min_margin: 0 })
    const second = await boughtWithFirstFailing(r, 'fl-rule', id, '081255600025')
    expect(second.requests.map((d) => [d.provider_code, d.status, d.max_cost])).toEqual([
      ['ml86', 'failed', 39_000],
      ['ml172', 'completed', 39_000],
    ])

    // A rule's larger margin: 19,500 + 1,000 passes 20,000 at the only source: nothing to sell.
    await admin(app, 'PUT', '/pricing-rules', { scope: 'item', item_id: id, percent: 0, flat: 0, round_to: 1, min_margin: 20_000 })
    expect((await itemRow(id)).min_margin).toBe(20_000)
    const refused = await buy(app, r, 'fl-rule-big', [{ item_id: id, quantity: 1, note: '081255600026' }])
    expect([refused.statusCode, refused.json().message]).toEqual([503, 'PRODUCT_TEMPORARILY_UNAVAILABLE'])
    expect(await catalogStatus(r, id)).toBe('off')

    await admin(app, 'DELETE', `/pricing-rules/${rule.id}`)
    expect((await itemRow(id)).min_margin).toBeNull()
    expect(await catalogStatus(r, id)).toBe('on')
  })

  it('an item allowed a loss fails over to the pricier source, with no bound', async () => {
    const id = await itemWith(20_000, pricey())
    expect(await admin(app, 'PATCH', `/items/${id}`, { allow_loss: true })).toMatchObject({ allow_loss: true, price: 20_000 })
    const r = await createReseller(app, { balance: 50_000 })
    const { order, requests } = await boughtWithFirstFailing(r, 'fl-loss', id, '081255600031')
    expect(requests.map((d) => [d.provider_code, d.status, d.cost, d.max_cost])).toEqual([
      ['ml86', 'failed', 19_500, null],
      ['ml172', 'completed', 38_900, null],
    ])
    expect(await refundsOf(order.id)).toEqual([])
  })

  it('a source in its cut-off window routes buyers to the next source only within the floor', async () => {
    const sources = [
      { provider: 'dgf', code: 'tsel10', priority: 1 },
      { provider: 'dgf2', code: 'tsel25', priority: 2 },
    ]
    const cheap = await itemWith(20_000, sources)
    const dear = await itemWith(30_000, sources)
    const r = await createReseller(app, { balance: 100_000 })
    try {
      prepaid.change('tsel10', { start_cut_off: wib(-60), end_cut_off: wib(60) })
      await sync()
      // tsel25 at 24,900 + 500 passes 20,000: no source serves.
      const refused = await buy(app, r, 'fl-cut-cheap', [{ item_id: cheap, quantity: 1, note: '081255600041' }])
      expect([refused.statusCode, refused.json().message]).toEqual([503, 'PRODUCT_TEMPORARILY_UNAVAILABLE'])
      expect(await balanceOf(app, r)).toBe(100_000)
      const order = await bought(r, 'fl-cut-dear', dear, '081255600045')
      expect(await requestsOf(order.id)).toEqual([
        expect.objectContaining({ provider: 'dgf2', provider_code: 'tsel25', amount: 30_000, cost: 24_900, max_cost: 29_500 }),
      ])
    } finally {
      prepaid.change('tsel10', { start_cut_off: '0:0', end_cut_off: '0:0' })
      await sync()
    }
    expect((await buy(app, r, 'fl-cut-after', [{ item_id: cheap, quantity: 1, note: '081255600046' }])).statusCode).toBe(200)
  })

  it('a locked price its only source’s cost passed is 503 with nothing debited and off in the catalog; allowing a loss sells it', async () => {
    const id = await itemWith(21_000, [{ provider: 'dgf', code: 'pln20', priority: 1 }], { unlimited_stock: false, stock: 5 })
    await admin(app, 'PATCH', `/items/${id}`, { price: 21_000 })
    const r = await createReseller(app, { balance: 50_000 })
    try {
      prepaid.change('pln20', { price: 22_000 })
      await sync()
      expect(await itemRow(id)).toMatchObject({ price: 21_000, cost: 22_000, price_locked: true })
      const refused = await buy(app, r, 'fl-locked', [{ item_id: id, quantity: 1, note: '081255600051' }])
      expect([refused.statusCode, refused.json().message]).toEqual([503, 'PRODUCT_TEMPORARILY_UNAVAILABLE'])
      expect(await balanceOf(app, r)).toBe(50_000)
      expect(await ctx.db.selectFrom('orders').select('id').where('ref_id', '=', 'fl-locked').execute()).toEqual([])
      const sandbox = await app.inject({
        method: 'POST',
        url: '/api/v1/order/sandbox',
        headers: r.headers,
        payload: { ref_id: 'fl-locked-sandbox', item_id: id, quantity: 1, note: '081255600051' },
      })
      expect([sandbox.statusCode, sandbox.json().message]).toEqual([503, 'PRODUCT_TEMPORARILY_UNAVAILABLE'])
      const lock = await app.inject({ method: 'POST', url: '/api/v1/item/lock', headers: r.headers, payload: { item_id: id, quantity: 1 } })
      expect([lock.statusCode, lock.json().message]).toEqual([503, 'PRODUCT_TEMPORARILY_UNAVAILABLE'])
      expect(await catalogStatus(r, id)).toBe('off')

      // Allowing a loss moves the catalog's change time (delta sync sees it) and puts it on sale.
      const before = (await itemRow(id)).updated_at
      await admin(app, 'PATCH', `/items/${id}`, { allow_loss: true })
      expect((await itemRow(id)).updated_at.getTime()).toBeGreaterThan(before.getTime())
      expect(await catalogStatus(r, id)).toBe('on')
      const order = await bought(r, 'fl-locked-loss', id, '081255600055')
      expect(await requestsOf(order.id)).toEqual([
        expect.objectContaining({ provider_code: 'pln20', amount: 21_000, cost: 22_000, max_cost: null }),
      ])
      expect(await balanceOf(app, r)).toBe(29_000)
    } finally {
      prepaid.change('pln20', { price: 20_150 })
      await sync()
    }
  })

  it('an item without sources is bounded by its cost’s floor when it has one, unbounded without', async () => {
    const id = await itemWith(20_000, [{ provider: 'dgf', code: 'ff140', priority: 1 }])
    await admin(app, 'PUT', `/items/${id}/sources`, { sources: [] })
    expect((await itemRow(id)).cost).toBe(18_200)
    const bare = (
      await createItem(app, { order_process: 'h2h', price: 20_000, unlimited_stock: true, provider: 'dgf', provider_code: 'ff140' })
    ).id as number
    const r = await createReseller(app, { balance: 100_000 })
    const costed = await buy(app, r, 'fl-bare-1', [{ item_id: id, quantity: 2, note: '081255600061' }])
    expect(costed.statusCode, costed.body).toBe(200)
    expect((await requestsOf(costed.json().data.id)).map((d) => [d.amount, d.cost, d.max_cost])).toEqual([
      [20_000, 18_200, 19_500],
      [20_000, 18_200, 19_500],
    ])
    const uncosted = await bought(r, 'fl-bare-2', bare, '081255600065')
    expect((await requestsOf(uncosted.id)).map((d) => [d.cost, d.max_cost])).toEqual([[null, null]])
  })

  it('MIN_MARGIN is written at start; a new one moves the change time of the items it governs; the books add up', async () => {
    const margin = () => ctx.db.selectFrom('margin_settings').select('min_margin').executeTakeFirstOrThrow()
    expect(await margin()).toEqual({ min_margin: 500 })
    const governed = await itemWith(20_000, [{ provider: 'dgf', code: 'ml86', priority: 1 }])
    const ruled = await itemWith(20_000, [{ provider: 'dgf', code: 'ml86', priority: 1 }])
    await admin(app, 'PUT', '/pricing-rules', { scope: 'item', item_id: ruled, percent: 0, flat: 0, round_to: 1, min_margin: 0 })
    const [governedAt, ruledAt] = [(await itemRow(governed)).updated_at, (await itemRow(ruled)).updated_at]
    // 19,500 + 600 passes 20,000: the item no rule covers goes off; the one its rule covers stays on.
    await recordMinMargin(ctx.db, 600)
    try {
      expect(await margin()).toEqual({ min_margin: 600 })
      expect((await itemRow(governed)).updated_at.getTime()).toBeGreaterThan(governedAt.getTime())
      expect((await itemRow(ruled)).updated_at).toEqual(ruledAt)
      const r = await createReseller(app)
      expect([await catalogStatus(r, governed), await catalogStatus(r, ruled)]).toEqual(['off', 'on'])
    } finally {
      await recordMinMargin(ctx.db, 500)
    }
    await dispatch()
    await assertInvariants(ctx.db)
  })
})
