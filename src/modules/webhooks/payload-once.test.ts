import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createAutoItem, createItem } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { subscriber as subscribe, xSignature } from '../../../test/factory-webhooks.js'
import { startReceiver, type Received } from '../../../test/receiver.js'
import { standardSignature } from './signing.js'
import { createWebhookWorker } from './webhook-worker.js'

// docs/design.md §8: an event's payload is the order as of that event, built once; every retry and
// redelivery sends the same body under the same webhook-id, only the times and signatures move.
let now = Date.now()
const clock = { now: () => new Date(now) }
const { app, ctx } = await createTestApp({}, {}, { clock })
const worker = createWebhookWorker(ctx)

const subscriber = (url: string) => subscribe(app, url)
const byEvent = (received: Received[], event: string) => received.filter((c) => c.json.event === event)

describe('each event’s payload is built once', () => {
  it('an all-auto purchase: order.paid says paid, signed apart from order.completed; a retry and a redelivery send the same bytes', async () => {
    const receiver = await startReceiver(() => ({ status: 503 }))
    const r = await subscriber(receiver.url)
    const item = await createAutoItem(app, 2, { price: 4_000 })
    expect((await buy(app, r, 'once-auto', [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
    await worker.runOnce()
    expect(receiver.received).toHaveLength(2)

    // The retry after the failure, a second later.
    receiver.answerWith(() => ({ status: 200 }))
    now += 1_000
    await worker.runOnce()
    expect(receiver.received).toHaveLength(4)
    const [paid, completed] = [byEvent(receiver.received, 'order.paid'), byEvent(receiver.received, 'order.completed')]
    expect(paid[0].json.data).toMatchObject({ ref_id: 'once-auto', status: 'paid', items: [{ status: 'completed' }] })
    expect(completed[0].json.data.status).toBe('completed')
    expect(paid[0].headers['x-signature']).toBe(xSignature(paid[0], 'paid', r.secret))
    expect(completed[0].headers['x-signature']).toBe(xSignature(completed[0], 'completed', r.secret))
    expect(paid[0].headers['x-signature']).not.toBe(completed[0].headers['x-signature'])

    // A redelivery of order.paid, an hour on.
    now += 3_600_000
    const [delivery] = (await app.inject({ method: 'GET', url: '/api/v1/webhook/deliveries', headers: r.headers }))
      .json()
      .data.filter((d: { event: string }) => d.event === 'order.paid')
    expect(
      (await app.inject({ method: 'POST', url: `/api/v1/webhook/deliveries/${delivery.id}/retry`, headers: r.headers })).statusCode,
    ).toBe(200)
    await worker.runOnce()
    const sends = byEvent(receiver.received, 'order.paid')
    expect(sends).toHaveLength(3)
    for (const call of sends) {
      expect(call.body).toBe(sends[0].body)
      expect(call.headers['webhook-id']).toBe(sends[0].headers['webhook-id'])
      expect(call.headers['x-signature']).toBe(sends[0].headers['x-signature'])
      const { 'webhook-id': id, 'webhook-timestamp': seconds } = call.headers as Record<string, string>
      expect(call.headers['webhook-signature']).toBe(standardSignature(r.secret, id, Number(seconds), call.body))
    }
    // Only the attempt's times (and the signature over them) move.
    expect(new Set(sends.map((c) => c.headers['x-timestamp'])).size).toBe(3)
    expect(new Set(sends.map((c) => c.headers['webhook-signature'])).size).toBe(3)
    expect(byEvent(receiver.received, 'order.completed').every((c) => c.body === completed[0].body)).toBe(true)
  })

  it('order.paid retried after the order was canceled still sends the paid order; order.canceled carries the newer state', async () => {
    const receiver = await startReceiver(() => ({ status: 500 }))
    const r = await subscriber(receiver.url)
    const manual = await createItem(app, { order_process: 'manual', stock: 3, price: 2_500 })
    const order = (await buy(app, r, 'once-manual', [{ item_id: manual.id, quantity: 1, note: 'mail@example.com' }])).json().data
    await worker.runOnce()
    await admin(app, 'POST', `/transactions/${order.id}/cancel`, { reason: 'supplier gone' })
    receiver.answerWith(() => ({ status: 200 }))
    now += 1_000
    await worker.runOnce()
    const paid = byEvent(receiver.received, 'order.paid')
    expect(paid).toHaveLength(2)
    expect(paid[1].body).toBe(paid[0].body)
    expect(paid[1].json.data).toMatchObject({ status: 'paid', items: [{ status: 'pending' }] })
    const [canceled] = byEvent(receiver.received, 'order.canceled')
    expect(canceled.json.data).toMatchObject({ status: 'canceled', items: [{ status: 'refunded' }] })
    expect(canceled.headers['webhook-id']).not.toBe(paid[0].headers['webhook-id'])
  })

  it('webhook.test redelivered sends the same placeholders and body', async () => {
    const receiver = await startReceiver(() => ({ status: 500 }))
    const r = await subscriber(receiver.url)
    const tested = (await app.inject({ method: 'POST', url: '/api/v1/webhook/test', headers: r.headers })).json().data
    receiver.answerWith(() => ({ status: 200 }))
    now += 60_000
    await app.inject({ method: 'POST', url: `/api/v1/webhook/deliveries/${tested.delivery_id}/retry`, headers: r.headers })
    await worker.runOnce()
    expect(receiver.received).toHaveLength(2)
    const [first, again] = receiver.received
    expect(again.body).toBe(first.body)
    expect(again.headers['webhook-id']).toBe(tested.webhook_id)
    expect(again.headers['x-signature']).toBe(xSignature(first, 'test', r.secret))
    expect(again.headers['x-timestamp']).not.toBe(first.headers['x-timestamp'])
  })
})
