import { afterAll, expect, it } from 'vitest'
import { createWebhookWorker } from '../src/modules/webhooks/index.js'
import { createTestApp } from './app.js'
import { createItem } from './factory.js'
import { balanceOf } from './factory-orders.js'
import { subscriber, xSignature } from './factory-webhooks.js'
import { assertInvariants } from './invariants.js'
import { startReceiver } from './receiver.js'
import { addSimulatedProviders, startUpstreams } from './upstreams.js'

// A bill from inquiry to the reseller's webhooks (docs/design.md §5c, §8), across bills, orders, fulfilment,
// the ledger and webhooks: the simulator as the provider, a receiver on 127.0.0.1 as the reseller.
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000' })
const up = await startUpstreams()
afterAll(() => up.close())
const webhooks = createWebhookWorker(ctx)

it('a PLN bill: asked, paid from the balance with a ledger entry, order.paid and order.completed carry the bill and its sn', async () => {
  await addSimulatedProviders(app, up, { panel: false })
  const pln = await createItem(app, {
    order_process: 'h2h',
    price: 3_000,
    unlimited_stock: true,
    provider: 'dgf',
    provider_code: 'pln',
    provider_meta: { postpaid: true },
  })
  const receiver = await startReceiver()
  const r = await subscriber(app, receiver.url)
  const opening = await balanceOf(app, r)

  const asked = await app.inject({
    method: 'POST',
    url: '/api/v1/trx/tagihan/inquiry',
    headers: r.headers,
    payload: { item_id: pln.id, customer_id: '530000000004' },
  })
  expect(asked.statusCode, asked.body).toBe(200)
  const bill = asked.json().data
  // Two months: 120,000 + 5,000 late fee, 150,000; our admin fee 3,000 each.
  expect(bill).toMatchObject({ bill_count: 2, bill_amount: 270_000, penalty: 5_000, admin_fee: 6_000, amount: 281_000 })

  const paid = await app.inject({
    method: 'POST',
    url: '/api/v1/trx/tagihan',
    headers: r.headers,
    payload: { ref_id: 'pln-nov', item_id: pln.id, customer_id: '530000000004', inquiry_id: bill.inquiry_id, max_amount: 281_000 },
  })
  expect(paid.statusCode, paid.body).toBe(200)
  const order = paid.json().data
  expect(await balanceOf(app, r)).toBe(opening - 281_000)
  const ledger = await app.inject({ method: 'GET', url: '/api/v1/balance/mutations', headers: r.headers })
  expect(ledger.json().data[0]).toMatchObject({ type: 'purchase', direction: 'debit', amount: 281_000 })

  await webhooks.runOnce()
  await receiver.waitFor(1)
  const [orderPaid] = receiver.received
  expect(orderPaid.json).toMatchObject({
    event: 'order.paid',
    data: { ref_id: 'pln-nov', invoice: order.invoice, status: 'paid', amount: 281_000 },
  })
  expect(orderPaid.json.data.items[0]).toMatchObject({
    target: '530000000004',
    customer_name: 'PELANGGAN 0004',
    period: bill.period,
    bill: { bill_count: 2, bill_amount: 270_000, penalty: 5_000, admin_fee: 6_000, amount: 281_000, details: bill.details },
  })
  expect(orderPaid.headers['x-signature']).toBe(xSignature(orderPaid, 'paid', r.secret))

  await ctx.fulfilment.upstream.runOnce()
  await webhooks.runOnce()
  await receiver.waitFor(2)
  const completed = receiver.received[1]
  expect(completed.json).toMatchObject({ event: 'order.completed', data: { ref_id: 'pln-nov', status: 'completed' } })
  const sn = completed.json.data.h2h_results[0].sn
  expect(sn).toMatch(/^[0-9A-F]{24}$/)
  expect(completed.json.data.items[0].h2h_results).toMatchObject({ sn, dispatch_status: 'completed' })
  expect(await balanceOf(app, r)).toBe(opening - 281_000)
  await assertInvariants(ctx.db)
})
