import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createItem, get } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { subscriber } from '../../../test/factory-webhooks.js'
import { startReceiver, type Received } from '../../../test/receiver.js'
import { addSimulatedProvider, startUpstreams } from '../../../test/upstreams.js'
import { createWebhookWorker } from './webhook-worker.js'

// The fields the public docs' payload examples show, over the real adapters and simulators.
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000', WEBHOOK_USER_AGENT: 'SekalipayWebhook/1.0' })
const up = await startUpstreams()
afterAll(() => up.close())
await addSimulatedProvider(app, up, 'digiflazz', 'dgf-wh')
const worker = createWebhookWorker(ctx)

const event = (received: Received[], name: string) => received.find((c) => c.json.event === name)!

describe('webhook payloads as the public docs show them', () => {
  it('an h2h line: product_id, its latest request as h2h_results {sn, dispatch_status, dispatch_message, ref_id}, completed', async () => {
    const receiver = await startReceiver()
    const r = await subscriber(app, receiver.url)
    const item = await createItem(app, {
      order_process: 'h2h',
      price: 5_000,
      unlimited_stock: true,
      provider: 'dgf-wh',
      provider_code: 'pln',
    })
    expect((await buy(app, r, 'wh-h2h', [{ item_id: item.id, quantity: 1, note: '081234560001' }])).statusCode).toBe(200)
    await worker.runOnce()
    await ctx.fulfilment.upstream.runOnce()
    await worker.runOnce()

    const [sent] = up.digiflazz.requests.filter((q) => q.customer_no === '081234560001')
    const paid = event(receiver.received, 'order.paid').json.data
    expect(paid.status).toBe('paid')
    expect(paid.items[0]).toMatchObject({
      variant_id: item.id,
      product_id: item.product_id,
      order_process: 'h2h',
      target: '081234560001',
      product_license: null,
      h2h_results: { sn: '', dispatch_status: 'pending', dispatch_message: '', ref_id: sent.ref_id },
    })
    const completed = event(receiver.received, 'order.completed').json.data
    expect(completed.items[0]).toMatchObject({
      product_id: item.product_id,
      status: 'completed',
      h2h_results: {
        sn: expect.stringMatching(/^SN[0-9A-F]{16}$/),
        dispatch_status: 'completed',
        dispatch_message: 'Transaksi Sukses',
        ref_id: sent.ref_id,
      },
    })
    expect(completed.h2h_results).toEqual([
      expect.objectContaining({ sn: completed.items[0].h2h_results.sn, dispatch_status: 'completed', h2h_provider: 'dgf-wh' }),
    ])
    // Retrieval says completed too; the per-line request object is the webhook's.
    const retrieved = (await get(app, '/trx/wh-h2h', r)).json().data
    expect(retrieved.items[0]).toMatchObject({ status: 'completed', product_id: item.product_id })
    expect(retrieved.items[0]).not.toHaveProperty('h2h_results')
  })

  it('order.item.sent: data.transaction_status, item.order_item_id (a string) and item.sent_at', async () => {
    const receiver = await startReceiver()
    const r = await subscriber(app, receiver.url)
    const manual = await createItem(app, { order_process: 'manual', stock: 2, price: 3_325 })
    const order = (await buy(app, r, 'wh-manual', [{ item_id: manual.id, quantity: 1, note: 'https://t.me/x/4' }])).json().data
    const line = (await admin(app, 'GET', `/transactions/${order.id}`)).items[0]
    const before = Date.now()
    await admin(app, 'POST', `/transactions/${order.id}/items/${line.id}/send`, { product_license: 'user|pass', note: 'renews monthly' })
    await worker.runOnce()
    const sent = event(receiver.received, 'order.item.sent')
    expect(sent.json.data.transaction_status).toBe('completed')
    expect(sent.json.data.item).toMatchObject({
      order_item_id: String(line.id),
      variant_id: manual.id,
      product_id: manual.product_id,
      status: 'sent',
      product_license: 'user|pass',
      seller_note: 'renews monthly',
      licenses: [{ product_license: 'user|pass', note: 'renews monthly' }],
    })
    const sentAt = new Date(sent.json.data.item.sent_at).getTime()
    expect(sentAt).toBeGreaterThanOrEqual(before - 1_000)
    expect(sentAt).toBeLessThanOrEqual(Date.now())
    expect(sent.json.data.item).not.toHaveProperty('sent_at', null)
  })

  it('User-Agent is WEBHOOK_USER_AGENT, on deliveries, test sends and in /webhook/docs', async () => {
    const receiver = await startReceiver()
    const r = await subscriber(app, receiver.url)
    await app.inject({ method: 'POST', url: '/api/v1/webhook/test', headers: r.headers })
    const manual = await createItem(app, { order_process: 'manual', stock: 1, price: 1_000 })
    await buy(app, r, 'wh-ua', [{ item_id: manual.id, quantity: 1 }])
    await worker.runOnce()
    expect(receiver.received.map((c) => c.json.event)).toEqual(['webhook.test', 'order.paid'])
    for (const call of receiver.received) expect(call.headers['user-agent']).toBe('SekalipayWebhook/1.0')
    const docs = (await get(app, '/webhook/docs', r)).json().data
    expect(docs.headers.find((h: { name: string }) => h.name === 'User-Agent').value).toBe('SekalipayWebhook/1.0')
  })
})
