import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { admin, createItem, createReseller, get, type Reseller } from '../../../test/factory.js'
import { balanceOf, buy } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'
import { addSimulatedProvider, addSimulatedProviders, startUpstreams } from '../../../test/upstreams.js'

// docs/design.md §11c upstream: a Digiflazz request carries max_price = its dispatch's max_cost; the
// simulator charges its list price and refuses one above max_price with rc 69, a definite failure
// (failover, else one refund); a success's price becomes the request's cost. max_cost is set here
// by SQL before the worker sends (the purchase's planning of it is not under test).
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000' })
const up = await startUpstreams()
afterAll(() => up.close())
await addSimulatedProviders(app, up, { panel: false })
await addSimulatedProvider(app, up, 'digiflazz', 'dgf2')
for (const code of ['dgf', 'dgf2']) await admin(app, 'POST', `/providers/${code}/sync?force=true`)
const prepaid = up.digiflazz.priceLists.prepaid

const dispatch = () => ctx.fulfilment.upstream.runOnce()
async function bought(r: Reseller, ref: string, itemId: number, quantity: number, note: string) {
  const res = await buy(app, r, ref, [{ item_id: itemId, quantity, note }])
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data as { id: number; amount: number }
}
const requestsOf = (orderId: number) =>
  ctx.db
    .selectFrom('dispatches')
    .select(['id', 'provider', 'provider_code', 'upstream_ref', 'status', 'message', 'cost', 'max_cost', 'failover_of'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute()
const boundFirst = (orderId: number, maxCost: number) =>
  sql`UPDATE dispatches SET max_cost = ${maxCost} WHERE id = (SELECT min(id) FROM dispatches WHERE order_id = ${orderId})`.execute(ctx.db)
const refundsOf = (orderId: number) =>
  ctx.db.selectFrom('ledger_entries').select('amount').where('order_id', '=', orderId).where('type', '=', 'refund').execute()
const sentTo = (customer: string) => up.digiflazz.requests.filter((q) => q.customer_no === customer)

describe('max_price upstream', () => {
  it('each request carries its own max_cost as max_price (none when null); the price charged becomes its cost', async () => {
    const item = await createItem(app, {
      order_process: 'h2h',
      price: 12_000,
      unlimited_stock: true,
      provider: 'dgf',
      provider_code: 'tsel10',
    })
    // A rise the catalog has not synced yet: the request costs what Digiflazz charges now.
    prepaid.change('tsel10', { price: 10_123 })
    try {
      const r = await createReseller(app, { balance: 100_000 })
      const order = await bought(r, 'mpu-carry', item.id, 2, '081277700001')
      await boundFirst(order.id, 10_123)
      const planned = await requestsOf(order.id)
      expect(planned.map((d) => [d.max_cost, d.cost])).toEqual([
        [10_123, null],
        [null, null],
      ])
      await dispatch()
      const sent = new Map(sentTo('081277700001').map((q) => [q.ref_id, q]))
      expect(sent.get(planned[0]!.upstream_ref)).toEqual({
        ref_id: planned[0]!.upstream_ref,
        customer_no: '081277700001',
        buyer_sku_code: 'tsel10',
        max_price: 10_123,
      })
      expect(sent.get(planned[1]!.upstream_ref)).toEqual({
        ref_id: planned[1]!.upstream_ref,
        customer_no: '081277700001',
        buyer_sku_code: 'tsel10',
      })
      expect((await requestsOf(order.id)).map((d) => [d.status, d.cost])).toEqual([
        ['completed', 10_123],
        ['completed', 10_123],
      ])
      expect((await get(app, '/trx/mpu-carry', r)).json().data.status).toBe('completed')
    } finally {
      prepaid.change('tsel10', { price: 10_150 })
    }
  })

  it('a price above max_price is rc 69, a definite failure: with no other source the line is refunded once', async () => {
    const item = await createItem(app, {
      order_process: 'h2h',
      price: 30_000,
      unlimited_stock: true,
      provider: 'dgf',
      provider_code: 'tsel25',
    })
    const r = await createReseller(app, { balance: 100_000 })
    const order = await bought(r, 'mpu-above', item.id, 1, '081277700021')
    await boundFirst(order.id, 24_899)
    await dispatch()
    const [request] = await requestsOf(order.id)
    expect(request).toMatchObject({ status: 'failed', cost: null, message: 'Harga seller lebih besar dari ketentuan harga Buyer' })
    expect(sentTo('081277700021')).toEqual([expect.objectContaining({ buyer_sku_code: 'tsel25', max_price: 24_899 })])
    const body = (await get(app, '/trx/mpu-above', r)).json()
    expect(body.data.status).toBe('canceled')
    expect(body.h2h_results).toEqual([expect.objectContaining({ dispatch_status: 'failed' })])
    expect(await balanceOf(app, r)).toBe(100_000)
    expect(await refundsOf(order.id)).toEqual([{ amount: 30_000 }])
    // Another pass, everything due: nothing is sent again, nothing refunded twice.
    await sql`UPDATE dispatches SET next_attempt_at = now() WHERE order_id = ${order.id}`.execute(ctx.db)
    await dispatch()
    expect(sentTo('081277700021')).toHaveLength(1)
    expect(await refundsOf(order.id)).toEqual([{ amount: 30_000 }])
    await assertInvariants(ctx.db)
  })

  it('rc 69 at the first source fails over to the next, which delivers at the price it charged', async () => {
    const item = await createItem(app, {
      order_process: 'h2h',
      price: 20_000,
      unlimited_stock: true,
      provider: 'dgf',
      provider_code: 'ml86',
    })
    const res = await app.inject({
      method: 'PUT',
      url: `/api/admin/v1/items/${item.id}/sources`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: {
        sources: [
          { provider: 'dgf', code: 'ml86', priority: 1 },
          { provider: 'dgf2', code: 'ff140', priority: 2 },
        ],
      },
    })
    expect(res.statusCode, res.body).toBe(200)
    const r = await createReseller(app, { balance: 100_000 })
    const order = await bought(r, 'mpu-failover', item.id, 1, '081277700031')
    await boundFirst(order.id, 19_000)
    await dispatch()
    const [failed, next] = await requestsOf(order.id)
    expect(failed).toMatchObject({ provider: 'dgf', provider_code: 'ml86', status: 'failed' })
    expect(failed!.message).toBe('failed over to dgf2: Harga seller lebih besar dari ketentuan harga Buyer')
    expect(next).toMatchObject({ provider: 'dgf2', provider_code: 'ff140', failover_of: failed!.id })
    await dispatch()
    expect((await requestsOf(order.id)).map((d) => [d.provider_code, d.status, d.cost])).toEqual([
      ['ml86', 'failed', 19_500],
      ['ff140', 'completed', 18_200],
    ])
    expect((await get(app, '/trx/mpu-failover', r)).json().data.status).toBe('completed')
    expect(await balanceOf(app, r)).toBe(100_000 - order.amount)
    expect(await refundsOf(order.id)).toEqual([])
    await assertInvariants(ctx.db)
  })
})
