import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from './app.js'
import { admin, createItem, createReseller } from './factory.js'
import { balanceOf, buy } from './factory-orders.js'
import { assertInvariants } from './invariants.js'
import { createPriceLevel, replaceLevelRules, setAccountLevel } from '../src/modules/price-levels/index.js'
import { addSimulatedProvider, addSimulatedProviders, startUpstreams } from './upstreams.js'

// The floor at a level's price (docs/design.md §5d, §11c), against the Digiflazz simulator over HTTP: a
// level's lower price is not raised to the floor; its buyers go to a source that keeps the floor at
// what they pay, and with none the item is unavailable to them while other levels buy it.
// ml86 costs 19,500 at dgf, ml172 38,900 at dgf2; the store keeps a floor of Rp 500 (MIN_MARGIN).
const { app, ctx } = await createTestApp({ MIN_MARGIN: '500' })
const up = await startUpstreams()
afterAll(() => up.close())
await addSimulatedProviders(app, up, { panel: false })
// A second provider on the same simulator: two sources of one product at different prices.
await addSimulatedProvider(app, up, 'digiflazz', 'dgf2')
for (const code of ['dgf', 'dgf2']) await admin(app, 'POST', `/providers/${code}/sync?force=true`)

const requestsOf = (orderId: number) =>
  ctx.db.selectFrom('dispatches').select(['provider_code', 'amount', 'max_cost']).where('order_id', '=', orderId).orderBy('id').execute()

describe('the floor at a level’s price', () => {
  it('routes each level to a source within the floor at its price, and refuses a level no source serves', async () => {
    // The dearer source first: at the item's own 40,000 it serves; at 20,000 only ml86 keeps the floor.
    const item = await createItem(app, {
      order_process: 'h2h',
      price: 40_000,
      unlimited_stock: true,
      provider: 'dgf2',
      provider_code: 'ml172',
    })
    await admin(app, 'PUT', `/items/${item.id}/sources`, {
      sources: [
        { provider: 'dgf2', code: 'ml172', priority: 1 },
        { provider: 'dgf', code: 'ml86', priority: 2 },
      ],
    })
    await createPriceLevel(ctx.db, { code: 'half', name: 'Half' })
    await replaceLevelRules(ctx.db, 'half', [{ scope: 'item', item_id: item.id, percent: -50, round_to: 1 }])
    await createPriceLevel(ctx.db, { code: 'below', name: 'Below' })
    await replaceLevelRules(ctx.db, 'below', [{ scope: 'item', item_id: item.id, percent: -60, round_to: 1 }])
    const own = await createReseller(app, { balance: 100_000 })
    const half = await createReseller(app, { balance: 100_000 })
    const below = await createReseller(app, { balance: 100_000 })
    await setAccountLevel(ctx.db, half.id, 'half')
    await setAccountLevel(ctx.db, below.id, 'below')

    const ownOrder = await buy(app, own, 'lvf-own', [{ item_id: item.id, quantity: 1, note: '081255700001' }])
    expect(ownOrder.statusCode, ownOrder.body).toBe(200)
    expect(await requestsOf(ownOrder.json().data.id)).toEqual([{ provider_code: 'ml172', amount: 40_000, max_cost: 39_500 }])

    const halfOrder = await buy(app, half, 'lvf-half', [{ item_id: item.id, quantity: 1, note: '081255700002' }])
    expect(halfOrder.statusCode, halfOrder.body).toBe(200)
    expect(halfOrder.json().data.price).toBe(20_000)
    expect(await requestsOf(halfOrder.json().data.id)).toEqual([{ provider_code: 'ml86', amount: 20_000, max_cost: 19_500 }])

    // 16,000 is under every source's cost + 500: unavailable at this level, nothing debited, the ref_id free.
    const refused = await buy(app, below, 'lvf-below', [{ item_id: item.id, quantity: 1, note: '081255700003' }])
    expect(refused.statusCode).toBe(503)
    expect(refused.json().message).toBe('PRODUCT_TEMPORARILY_UNAVAILABLE')
    expect(await balanceOf(app, below)).toBe(100_000)
    const sandbox = await app.inject({
      method: 'POST',
      url: '/api/v1/order/sandbox',
      headers: below.headers,
      payload: { ref_id: 'lvf-sbx', item_id: item.id, quantity: 1, note: '081255700003' },
    })
    expect(sandbox.statusCode).toBe(503)
    // Margin watch names the level the floor keeps the item from, and only it.
    const watch = await admin(app, 'GET', '/reports/margin-watch')
    expect(watch.items.rows.filter((r: { item_id: number }) => r.item_id === item.id)).toEqual([
      expect.objectContaining({ level: 'below', price: 16_000, cheapest_cost: 19_500, floor_margin: 500 }),
    ])
    await assertInvariants(ctx.db)
  })

  it('a bill’s admin fee is the item’s price at the payer’s level, and its payment charges the inquiry’s amount', async () => {
    const pln = await createItem(app, {
      order_process: 'h2h',
      price: 2_500,
      unlimited_stock: true,
      provider: 'dgf',
      provider_code: 'pln',
      provider_meta: { postpaid: true },
    })
    await createPriceLevel(ctx.db, { code: 'bills', name: 'Bills' })
    await replaceLevelRules(ctx.db, 'bills', [{ scope: 'item', item_id: pln.id, percent: 100, round_to: 1 }])
    const payer = await createReseller(app, { balance: 500_000 })
    await setAccountLevel(ctx.db, payer.id, 'bills')
    const asked = await app.inject({
      method: 'POST',
      url: '/api/v1/trx/tagihan/inquiry',
      headers: payer.headers,
      payload: { item_id: pln.id, customer_id: '530000000011' },
    })
    expect(asked.statusCode, asked.body).toBe(200)
    const bill = asked.json().data
    expect(bill).toMatchObject({ admin_fee: 5_000 * bill.bill_count, amount: bill.bill_amount + bill.penalty + 5_000 * bill.bill_count })
    const paid = await app.inject({
      method: 'POST',
      url: '/api/v1/trx/tagihan',
      headers: payer.headers,
      payload: { ref_id: 'lvf-bill', item_id: pln.id, customer_id: '530000000011', inquiry_id: bill.inquiry_id },
    })
    expect(paid.statusCode, paid.body).toBe(200)
    expect(await balanceOf(app, payer)).toBe(500_000 - bill.amount)
    await assertInvariants(ctx.db)
  })
})
