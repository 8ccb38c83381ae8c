import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { createAutoItem, createItem, createReseller, type Reseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { addSimulatedProviders, startUpstreams } from '../../../test/upstreams.js'

// The margin report over real purchases settled by the simulators over HTTP. Items get their cost
// by SQL (the item API does not take one); each line's and request's cost is what purchase() records
// from it, filled in here by SQL only where it recorded none, so the numbers are the same either way.
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000' })
const up = await startUpstreams()
afterAll(() => up.close())
await addSimulatedProviders(app, up)

const auto = await createAutoItem(app, 5, { product_name: 'Steam Wallet', name: 'IDR 10.000', price: 10_000 })
const h2h = await createItem(app, { order_process: 'h2h', price: 10_000, unlimited_stock: true, provider: 'dgf', provider_code: 'ml86' })
const smm = await createItem(app, { order_process: 'smm', price: 100, unlimited_stock: true, provider: 'panel', provider_code: '7' })
const manual = await createItem(app, { order_process: 'manual', price: 5_000, stock: 5 })
const UNIT_COST = new Map<number, number>([
  [auto.id, 8_000],
  [h2h.id, 9_000],
  [smm.id, 60],
])
for (const [id, cost] of UNIT_COST) await sql`UPDATE items SET cost = ${cost} WHERE id = ${id}`.execute(ctx.db)
// The supplier charges what the h2h item's cost says: a delivered request's cost is the price it charged.
up.digiflazz.priceLists.prepaid.change('ml86', { price: 9_000 })

async function bought(r: Reseller, ref: string, carts: { item_id: number; quantity: number; note?: string }[]) {
  const res = await buy(app, r, ref, carts)
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data as { id: number }
}
/** The costs purchase() records, where it recorded none: the line's units × the item's cost; an upstream request's its share. */
async function recordCosts(orderId: number) {
  await sql`UPDATE order_lines l SET cost = l.quantity * i.cost FROM items i
             WHERE i.id = l.item_id AND l.order_id = ${orderId} AND l.cost IS NULL AND i.cost IS NOT NULL`.execute(ctx.db)
  await sql`UPDATE dispatches d SET cost = d.quantity * i.cost FROM order_lines l JOIN items i ON i.id = l.item_id
             WHERE l.id = d.order_line_id AND d.order_id = ${orderId} AND d.cost IS NULL AND i.cost IS NOT NULL`.execute(ctx.db)
}
const report = (query: string) =>
  app.inject({ method: 'GET', url: `/api/admin/v1/reports/margin${query}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
async function margin(query: string) {
  const res = await report(query)
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data
}
const dayOf = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jakarta' }).format(at)
const fig = (orders: number, lines: number, revenue: number, cost: number, unknown = 0) => ({
  orders,
  lines,
  revenue,
  cost,
  margin: revenue - cost,
  margin_percent: revenue ? Math.round(((revenue - cost) / revenue) * 10_000) / 100 : null,
  unknown_cost_lines: unknown,
})

// Reseller A: an auto line of 2 (cost 16,000) and a delivered h2h line (9,000) in one order; an smm
// Partial the next order (10 units at 60, 6 delivered: cost 360, revenue 1,000 − 400 refunded).
// Reseller B: an h2h line that failed (refunded: revenue 0, cost 0), and a manual line of unknown cost.
const a = await createReseller(app, { name: 'Toko A', balance: 100_000 })
const b = await createReseller(app, { name: 'Toko B', balance: 100_000 })
const o1 = await bought(a, 'm-1', [
  { item_id: auto.id, quantity: 2 },
  { item_id: h2h.id, quantity: 1, note: '081234567891' },
])
const o2 = await bought(a, 'm-2', [{ item_id: smm.id, quantity: 10, note: JSON.stringify({ target: 'https://instagram.com/x4' }) }])
const o3 = await bought(b, 'm-3', [{ item_id: h2h.id, quantity: 1, note: '081200000002' }])
const o4 = await bought(b, 'm-4', [{ item_id: manual.id, quantity: 1, note: 'buyer@example.com' }])
for (const o of [o1, o2, o3, o4]) await recordCosts(o.id)
await ctx.fulfilment.upstream.runOnce()
await sql`UPDATE dispatches SET next_attempt_at = now() WHERE status IN ('pending', 'queued')`.execute(ctx.db)
await ctx.fulfilment.upstream.runOnce()
await ctx.fulfilment.smmPoller.runOnce()
// The smm order a day earlier, and one order (not counted by default) 40 days back.
await sql`UPDATE orders SET created_at = created_at - interval '1 day' WHERE id = ${o2.id}`.execute(ctx.db)
const old = await bought(a, 'm-old', [{ item_id: auto.id, quantity: 1 }])
await recordCosts(old.id)
await sql`UPDATE orders SET created_at = created_at - interval '40 days' WHERE id = ${old.id}`.execute(ctx.db)
const createdAt = async (id: number) =>
  (await ctx.db.selectFrom('orders').select('created_at').where('id', '=', id).executeTakeFirstOrThrow()).created_at

describe('GET /reports/margin', () => {
  it('settled as the scenario says', async () => {
    const statuses = await ctx.db.selectFrom('orders').select(['id', 'status']).orderBy('id').execute()
    expect(statuses.map((o) => o.status)).toEqual(['completed', 'completed', 'canceled', 'paid', 'completed'])
    const partial = await ctx.db.selectFrom('dispatches').select(['status', 'remains', 'quantity']).where('order_id', '=', o2.id).execute()
    expect(partial).toEqual([{ status: 'completed', remains: 4, quantity: 10 }])
  })

  it('sums the last 30 days by default, per day in order, with totals', async () => {
    const data = await margin('')
    const today = dayOf(await createdAt(o1.id))
    const yesterday = dayOf(await createdAt(o2.id))
    expect(data).toMatchObject({ to: today, time_zone: 'Asia/Jakarta', group: 'day' })
    expect(Date.parse(data.to) - Date.parse(data.from)).toBe(29 * 86_400_000)
    expect(data.rows).toEqual([
      { key: yesterday, label: yesterday, ...fig(1, 1, 600, 360) },
      { key: today, label: today, ...fig(3, 4, 35_000, 25_000, 1) },
    ])
    expect(data.totals).toEqual(fig(4, 5, 35_600, 25_360, 1))
    expect(data.totals.margin_percent).toBe(28.76)
  })

  it('per reseller, per item and per provider (the source that served), by margin', async () => {
    const byReseller = await margin('?group=reseller')
    expect(byReseller.rows).toEqual([
      { key: String(a.id), label: 'Toko A', ...fig(2, 3, 30_600, 25_360) },
      { key: String(b.id), label: 'Toko B', ...fig(2, 2, 5_000, 0, 1) },
    ])
    const byItem = await margin('?group=item')
    expect(byItem.rows).toEqual([
      { key: String(manual.id), label: `Test Product — ${manual.name}`, ...fig(1, 1, 5_000, 0, 1) },
      { key: String(auto.id), label: 'Steam Wallet — IDR 10.000', ...fig(1, 1, 20_000, 16_000) },
      { key: String(h2h.id), label: `Test Product — ${h2h.name}`, ...fig(2, 2, 10_000, 9_000) },
      { key: String(smm.id), label: `Test Product — ${smm.name}`, ...fig(1, 1, 600, 360) },
    ])
    const byProvider = await margin('?group=provider')
    expect(byProvider.rows).toEqual([
      { key: 'manual', label: 'Manual', ...fig(1, 1, 5_000, 0, 1) },
      { key: 'stock', label: 'Stock (auto)', ...fig(1, 1, 20_000, 16_000) },
      { key: 'dgf', label: 'dgf', ...fig(2, 2, 10_000, 9_000) },
      { key: 'panel', label: 'panel', ...fig(1, 1, 600, 360) },
    ])
    for (const d of [byReseller, byItem, byProvider]) expect(d.totals).toEqual(fig(4, 5, 35_600, 25_360, 1))
  })

  it('counts an open request at its planned cost, and a line bought without a cost as unknown', async () => {
    const r = await createReseller(app, { name: 'Toko C', balance: 50_000 })
    // Sent later: the request stays queued (open) at its planned cost.
    const open = await bought(r, 'm-open', [{ item_id: h2h.id, quantity: 2, note: '081299999991' }])
    await recordCosts(open.id)
    await sql`UPDATE order_lines SET cost = NULL WHERE order_id = ${open.id}`.execute(ctx.db)
    const noCost = await bought(r, 'm-nocost', [{ item_id: auto.id, quantity: 1 }])
    await sql`UPDATE order_lines SET cost = NULL WHERE order_id = ${noCost.id}`.execute(ctx.db)
    const day = dayOf(await createdAt(open.id))
    const { rows } = await margin(`?group=reseller&from=${day}&to=${day}`)
    expect(rows.find((row: { key: string }) => row.key === String(r.id))).toEqual({
      key: String(r.id),
      label: 'Toko C',
      ...fig(2, 2, 30_000, 18_000, 1),
    })
  })

  it('a paid bill costs the supplier’s price from its inquiry: its margin is our admin fee less the supplier’s commission', async () => {
    const pln = await createItem(app, {
      order_process: 'h2h',
      price: 2_600,
      unlimited_stock: true,
      provider: 'dgf',
      provider_code: 'pln',
      provider_meta: { postpaid: true },
    })
    const r = await createReseller(app, { name: 'Toko Tagihan', balance: 500_000 })
    const asked = await app.inject({
      method: 'POST',
      url: '/api/v1/trx/tagihan/inquiry',
      headers: r.headers,
      payload: { item_id: pln.id, customer_id: '530000000011' },
    })
    expect(asked.statusCode, asked.body).toBe(200)
    const paid = await app.inject({
      method: 'POST',
      url: '/api/v1/trx/tagihan',
      headers: r.headers,
      payload: { ref_id: 'm-bill', item_id: pln.id, customer_id: '530000000011', inquiry_id: asked.json().data.inquiry_id },
    })
    expect(paid.statusCode, paid.body).toBe(200)
    await ctx.fulfilment.upstream.runOnce()
    const day = dayOf(await createdAt(paid.json().data.id))
    const { rows } = await margin(`?group=reseller&from=${day}&to=${day}`)
    // 150,000 + our 2,600; the supplier's price 152,000: a margin of 600, not the whole amount.
    expect(rows.find((row: { key: string }) => row.key === String(r.id))).toEqual({
      key: String(r.id),
      label: 'Toko Tagihan',
      ...fig(1, 1, 152_600, 152_000),
    })
  })

  it('answers zero totals for a range without orders', async () => {
    const data = await margin('?from=2020-01-01&to=2020-01-31&group=item')
    expect(data).toEqual({
      from: '2020-01-01',
      to: '2020-01-31',
      time_zone: 'Asia/Jakarta',
      group: 'item',
      rows: [],
      totals: fig(0, 0, 0, 0),
    })
  })

  it('refuses bad days, a reversed or too long range and an unknown group with 422 naming the field', async () => {
    const cases: [string, string][] = [
      ['?from=2026-13-01&to=2026-12-31', 'from'],
      ['?from=2026-02-30', 'from'],
      ['?to=yesterday', 'to'],
      ['?from=2026-11-02&to=2026-11-01', 'from'],
      ['?from=2025-01-01&to=2026-01-02', 'to'],
      ['?group=week', 'group'],
    ]
    for (const [query, field] of cases) {
      const res = await report(query)
      expect(res.statusCode, query).toBe(422)
      expect(res.json().message, query).toBe('VALIDATION_ERROR')
      expect(Object.keys(res.json().errors), query).toEqual([field])
    }
    // 366 days, a leap year's whole, is allowed.
    expect((await report('?from=2024-01-01&to=2024-12-31')).statusCode).toBe(200)
  })
})
