import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { createItem, createReseller, get, type Reseller } from '../../../test/factory.js'
import { buy, relayEvents } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'
import { addSimulatedProviders, startUpstreams } from '../../../test/upstreams.js'

// Lines that end delivered with part of their money back, over the fake providers (simulator-steering.ts).
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000' })
const up = await startUpstreams()
afterAll(() => up.close())

await addSimulatedProviders(app, up)

async function settle() {
  await ctx.fulfilment.upstream.runOnce()
  await sql`UPDATE dispatches SET next_attempt_at = now() WHERE status IN ('pending', 'queued')`.execute(ctx.db)
  await ctx.fulfilment.upstream.runOnce()
  await ctx.fulfilment.smmPoller.runOnce()
}
async function bought(r: Reseller, ref: string, carts: { item_id: number; quantity: number; note: string }[]) {
  const res = await buy(app, r, ref, carts)
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data as { id: number; amount: number }
}
async function counted(r: Reseller) {
  await relayEvents(ctx)
  const res = await get(app, '/leaderboard/profile', r)
  expect(res.statusCode, res.body).toBe(200)
  const { total_transactions, points } = res.json().data
  return { total_transactions, points }
}
async function outcome(orderId: number) {
  const order = await ctx.db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()
  const lines = await ctx.db.selectFrom('order_lines').select(['status', 'refunded_amount']).where('order_id', '=', orderId).execute()
  return { status: order.status, lines }
}

describe('partial refunds inside a line', () => {
  it('an smm line that ends Partial counts only what was delivered', async () => {
    const smm = await createItem(app, { order_process: 'smm', price: 1_500, unlimited_stock: true, provider: 'panel', provider_code: '7' })
    const r = await createReseller(app, { balance: 50_000 })
    // A link ending in 4: the panel answers Partial with remains ⌊7 × 0.4⌋ = 2 of 7.
    const order = await bought(r, 'lb-smm', [{ item_id: smm.id, quantity: 7, note: 'https://instagram.com/leader4' }])
    expect(order.amount).toBe(10_500)
    expect(await counted(r)).toEqual({ total_transactions: 0, points: 0 })
    await settle()
    // Refund ⌊10,500 × 2 / 7⌋ = 3,000; counted 10,500 − 3,000 = 7,500: 7 points (10 had the refund been missed).
    expect(await outcome(order.id)).toEqual({ status: 'completed', lines: [{ status: 'delivered', refunded_amount: 3_000 }] })
    expect(await counted(r)).toEqual({ total_transactions: 1, points: 7 })
    await assertInvariants(ctx.db)
  })

  it('an h2h line of three requests with one failed counts the two delivered', async () => {
    const h2h = await createItem(app, { order_process: 'h2h', price: 2_500, unlimited_stock: true, provider: 'dgf', provider_code: 'ml86' })
    const r = await createReseller(app, { balance: 50_000 })
    const order = await bought(r, 'lb-h2h', [{ item_id: h2h.id, quantity: 3, note: '081266666661' }])
    expect(order.amount).toBe(7_500)
    // One request of the three goes to a number ending in 2: Digiflazz answers Gagal for it alone.
    await sql`UPDATE dispatches SET target = '081266666662' WHERE order_id = ${order.id} AND seq = 1`.execute(ctx.db)
    await settle()
    // Refund 2,500 (the failed request); counted 7,500 − 2,500 = 5,000: 5 points (7 had the refund been missed).
    expect(await outcome(order.id)).toEqual({ status: 'completed', lines: [{ status: 'delivered', refunded_amount: 2_500 }] })
    const statuses = await ctx.db.selectFrom('dispatches').select('status').where('order_id', '=', order.id).orderBy('seq').execute()
    expect(statuses.map((d) => d.status)).toEqual(['completed', 'failed', 'completed'])
    expect(await counted(r)).toEqual({ total_transactions: 1, points: 5 })

    // A second such order the same month: 5,000 more, 10 points over two transactions.
    const again = await bought(r, 'lb-h2h-2', [{ item_id: h2h.id, quantity: 3, note: '081266666661' }])
    await sql`UPDATE dispatches SET target = '081266666662' WHERE order_id = ${again.id} AND seq = 0`.execute(ctx.db)
    await settle()
    expect(await counted(r)).toEqual({ total_transactions: 2, points: 10 })
    await assertInvariants(ctx.db)
  })
})
