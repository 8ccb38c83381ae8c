import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { admin, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { addSimulatedProviders, startUpstreams } from '../../../test/upstreams.js'

// Margin watch (docs/design.md §11c) over real purchases and bill inquiries against the simulators over
// HTTP. Where what makes a line cost more than it was sold for belongs to routing (a supplier that
// charges more than it listed, a failover to a dearer source), the request's cost is set by SQL.
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000' })
const up = await startUpstreams()
afterAll(() => up.close())
await addSimulatedProviders(app, up, { panel: false })
await admin(app, 'POST', '/providers/dgf/sync?force=true')
// The supplier charges what the items' cost says: a delivered request's cost is the price it charged.
up.digiflazz.priceLists.prepaid.change('ml86', { price: 9_000 })

const h2h = (extra: object = {}) =>
  createItem(app, { order_process: 'h2h', price: 10_000, unlimited_stock: true, provider: 'dgf', provider_code: 'ml86', ...extra })
const [plain, locked, promo, floored] = [await h2h(), await h2h(), await h2h(), await h2h()]
await sql`UPDATE items SET cost = 9000 WHERE id IN (${plain.id}, ${locked.id}, ${floored.id})`.execute(ctx.db)
// A promotion: sold at 10,000 what costs 11,000, allowed.
await sql`UPDATE items SET cost = 11000, allow_loss = true WHERE id = ${promo.id}`.execute(ctx.db)
await sql`UPDATE items SET price_locked = true WHERE id = ${locked.id}`.execute(ctx.db)

const r = await createReseller(app, { name: 'Toko Watch', balance: 1_000_000 })
async function bought(ref: string, itemId: number, note = '081234567891') {
  const res = await buy(app, r, ref, [{ item_id: itemId, quantity: 1, note }])
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data as { id: number; invoice: string }
}
async function settle() {
  await ctx.fulfilment.upstream.runOnce()
  await sql`UPDATE dispatches SET next_attempt_at = now() WHERE status IN ('pending', 'queued')`.execute(ctx.db)
  await ctx.fulfilment.upstream.runOnce()
}
const charged = (orderId: number, cost: number) => sql`UPDATE dispatches SET cost = ${cost} WHERE order_id = ${orderId}`.execute(ctx.db)

await bought('w-fine', plain.id)
const failed = await bought('w-failed', plain.id, '081234567892')
const rose = await bought('w-rose', plain.id)
const lockedLine = await bought('w-locked', locked.id)
const promoLine = await bought('w-promo', promo.id)
const failover = await bought('w-failover', plain.id)
const thin = await bought('w-thin', floored.id)
const old = await bought('w-old', plain.id)
await settle()
// The supplier charged more than it listed; the locked item's too; a failover went to a dearer source.
await charged(rose.id, 10_300)
await charged(lockedLine.id, 10_200)
await charged(old.id, 12_000)
await charged(promoLine.id, 11_000)
await sql`UPDATE dispatches SET cost = 10100,
            failover_of = (SELECT id FROM dispatches WHERE order_id = ${failed.id})
          WHERE order_id = ${failover.id}`.execute(ctx.db)
// A margin of 1,000 where the item now keeps 1,500.
await sql`UPDATE items SET min_margin = 1500 WHERE id = ${floored.id}`.execute(ctx.db)
await sql`UPDATE orders SET created_at = created_at - interval '40 days' WHERE id = ${old.id}`.execute(ctx.db)

// A bill the supplier asks 110,000 for, where the reseller would pay 102,500.
const pln = await createItem(app, {
  order_process: 'h2h',
  price: 2_500,
  unlimited_stock: true,
  provider: 'dgf',
  provider_code: 'pln',
  provider_meta: { postpaid: true },
})
const refused = await app.inject({
  method: 'POST',
  url: '/api/v1/trx/tagihan/inquiry',
  headers: r.headers,
  payload: { item_id: pln.id, customer_id: '530000000008' },
})
expect(refused.statusCode, refused.body).toBe(503)

// A price locked by hand below what its only source now asks.
const stuck = await createItem(app, { order_process: 'h2h', price: 20_000, unlimited_stock: true, provider: 'dgf', provider_code: 'ff140' })
await admin(app, 'PUT', `/items/${stuck.id}/sources`, { sources: [{ provider: 'dgf', code: 'ff140', priority: 1 }] })
await admin(app, 'PATCH', `/items/${stuck.id}`, { price: 18_500, price_locked: true })
up.digiflazz.priceLists.prepaid.change('ff140', { price: 18_900 })
await admin(app, 'POST', '/providers/dgf/sync?force=true')

const watch = (query: string) =>
  app.inject({ method: 'GET', url: `/api/admin/v1/reports/margin-watch${query}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
async function watched(query = '') {
  const res = await watch(query)
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data
}

describe('GET /reports/margin-watch', () => {
  it('lists the lines sold below cost + floor margin in the period, each with its cause, newest first', async () => {
    const { lines } = await watched()
    const line = (order: { id: number; invoice: string }, ref: string, itemId: number, cost: number, floor: number, cause: string) => ({
      order_id: order.id,
      invoice: order.invoice,
      ref_id: ref,
      reseller_id: r.id,
      reseller_name: 'Toko Watch',
      item_id: itemId,
      item_name: expect.stringContaining('Test Product — '),
      quantity: 1,
      revenue: 10_000,
      cost,
      floor_margin: floor,
      loss: cost - 10_000,
      short_of_floor: cost + floor - 10_000,
      cause,
      created_at: expect.stringMatching(/Z$/),
    })
    expect(lines).toEqual({
      total: 5,
      rows: [
        line(thin, 'w-thin', floored.id, 9_000, 1_500, 'cost_rise'),
        line(failover, 'w-failover', plain.id, 10_100, 0, 'failover'),
        line(promoLine, 'w-promo', promo.id, 11_000, 0, 'allow_loss'),
        line(lockedLine, 'w-locked', locked.id, 10_200, 0, 'price_locked'),
        line(rose, 'w-rose', plain.id, 10_300, 0, 'cost_rise'),
      ],
    })
    // A line within the floor, and one that failed and was refunded (it earned and cost nothing), are not listed.
    const refs = lines.rows.map((l: { ref_id: string }) => l.ref_id)
    expect(refs).not.toContain('w-fine')
    expect(refs).not.toContain('w-failed')
  })

  it('lists the bill inquiries the floor refused, with the supplier’s price', async () => {
    const { bills } = await watched()
    expect(bills).toEqual({
      total: 1,
      rows: [
        {
          inquiry_id: expect.any(Number),
          reseller_id: r.id,
          reseller_name: 'Toko Watch',
          item_id: pln.id,
          item_name: expect.any(String),
          customer_id: '530000000008',
          customer_name: 'PELANGGAN 0008',
          amount: 102_500,
          supplier_price: 110_000,
          cause: 'bill',
          created_at: expect.stringMatching(/Z$/),
        },
      ],
    })
  })

  it('lists the items the floor keeps from selling now, with their cheapest listed cost', async () => {
    const { items } = await watched()
    expect(items).toEqual({
      total: 1,
      rows: [
        {
          item_id: stuck.id,
          item_name: expect.any(String),
          sku: expect.any(String),
          level: 'reseller',
          price: 18_500,
          cheapest_cost: 18_900,
          floor_margin: 0,
          price_locked: true,
        },
      ],
    })
    // Allowed a loss, it sells again and leaves the list.
    await sql`UPDATE items SET allow_loss = true WHERE id = ${stuck.id}`.execute(ctx.db)
    expect((await watched()).items).toEqual({ total: 0, rows: [] })
    await sql`UPDATE items SET allow_loss = false WHERE id = ${stuck.id}`.execute(ctx.db)
  })

  it('counts the period asked for: an order 40 days back only when its days are asked', async () => {
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jakarta' }).format(new Date(Date.now() - 40 * 86_400_000))
    const data = await watched(`?from=${day}&to=${day}`)
    expect(data.lines.rows.map((l: { ref_id: string; cost: number }) => [l.ref_id, l.cost])).toEqual([['w-old', 12_000]])
    expect(data.bills).toEqual({ total: 0, rows: [] })
  })

  it('refuses bad days and a reversed or too long range with 422 naming the field', async () => {
    const cases: [string, string][] = [
      ['?from=2026-02-30', 'from'],
      ['?to=yesterday', 'to'],
      ['?from=2026-11-02&to=2026-11-01', 'from'],
      ['?from=2025-01-01&to=2026-01-02', 'to'],
    ]
    for (const [query, field] of cases) {
      const res = await watch(query)
      expect([res.statusCode, res.json().message, Object.keys(res.json().errors ?? {})], query).toEqual([422, 'VALIDATION_ERROR', [field]])
    }
  })
})
