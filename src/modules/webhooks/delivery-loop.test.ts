import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { eventually } from '../../../test/eventually.js'
import { createItem, createReseller, type Reseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { startReceiver } from '../../../test/receiver.js'
import type { App } from '../../http/server.js'
import { PER_RECEIVER, createWebhookWorker } from './webhook-worker.js'

// The worker as it runs in the service: woken by NOTIFY, on time for retries, real clock.
const { app, ctx } = await createTestApp()
const silentLog = {
  error: () => {},
  warn: () => {},
  info: () => {},
  debug: () => {},
  trace: () => {},
  fatal: () => {},
  child: () => silentLog,
  level: 'silent',
  silent: () => {},
}
// A poll of a day never runs within these tests: whatever is delivered, NOTIFY or a retry timer
// woke the worker for it (causality, not a stopwatch).
const running = await createWebhookWorker(ctx, { pollMs: 86_400_000 }).start(silentLog as never)
afterAll(() => running.stop())

async function subscriber(url: string, on: App = app): Promise<Reseller> {
  const r = await createReseller(on, { balance: 10_000_000 })
  await on.inject({ method: 'POST', url: '/api/v1/webhook/secret', headers: r.headers })
  await on.inject({ method: 'PUT', url: '/api/v1/webhook', headers: r.headers, payload: { callback_url: url, webhook_enabled: true } })
  return r
}

// A manual line keeps the order paid: one event (order.paid) per purchase.
const manualItem = (on: App = app) => createItem(on, { order_process: 'manual', unlimited_stock: true, price: 1_000 })

describe('the running worker', () => {
  it('a receiver failing three times gets the event on the fourth attempt, at least 1 s, 2 s and 4 s apart', async () => {
    const receiver = await startReceiver((_request, index) => ({ status: index < 3 ? 500 : 200 }))
    const r = await subscriber(receiver.url)
    const item = await manualItem()
    expect((await buy(app, r, 'flaky-1', [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
    // The first attempt woke by NOTIFY on commit and each retry by its timer: the day's poll never ran.
    await receiver.waitFor(4, 60_000)

    // Never early: each retry at least its delay after the failure before it (a slow machine only
    // makes a gap longer; how much longer is for `npm run bench`, not a test).
    const gaps = receiver.received.slice(1).map((call, i) => (call.at - receiver.received[i].at) / 1000)
    const expected = [1, 2, 4]
    gaps.forEach((gap, i) => expect(gap, `gap ${i + 1}`).toBeGreaterThanOrEqual(expected[i] * 0.9))
    expect(new Set(receiver.received.map((c) => c.headers['webhook-id'])).size).toBe(1)
    const delivery = await eventually(
      'the fourth attempt recorded',
      () => ctx.db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', r.id).executeTakeFirstOrThrow(),
      (d) => d.status === 'delivered',
    )
    expect(delivery).toMatchObject({ status: 'delivered', failures: 3 })
    expect(delivery.attempts).toHaveLength(4)
    expect(receiver.received).toHaveLength(4)
  })

  it('a redelivery reaches a worker that has nothing open and last read nothing due', async () => {
    const receiver = await startReceiver()
    const r = await subscriber(receiver.url)
    const item = await manualItem()
    expect((await buy(app, r, 'again-1', [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
    await receiver.waitFor(1)
    // Settled (the attempt recorded): nothing open, so the worker sleeps until its day-long poll
    // unless told otherwise.
    const delivered = async () =>
      (await app.inject({ method: 'GET', url: '/api/v1/webhook/deliveries', headers: r.headers })).json().data[0]
    const delivery = await eventually('the first attempt recorded', delivered, (d) => d?.status === 'delivered')
    const retried = await app.inject({ method: 'POST', url: `/api/v1/webhook/deliveries/${delivery.id}/retry`, headers: r.headers })
    expect(retried.statusCode).toBe(200)
    // Only the retry's NOTIFY can wake it: the redelivery arriving at all is the proof.
    await receiver.waitFor(2, 60_000)
    expect(receiver.received[1].headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id'])
  })

  it('a receiver that hangs holds only its own slots: another account is served meanwhile', async () => {
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    const slow = await startReceiver(async () => (await released, { status: 200 }))
    const fast = await startReceiver()
    const a = await subscriber(slow.url)
    const b = await subscriber(fast.url)
    const item = await manualItem()
    const events = PER_RECEIVER + 2
    for (let i = 0; i < events; i++) await buy(app, a, `slow-${i}`, [{ item_id: item.id, quantity: 1 }])
    await slow.waitFor(PER_RECEIVER)
    await buy(app, b, 'fast-1', [{ item_id: item.id, quantity: 1 }])
    // Arrives while every one of the slow receiver's attempts is still waiting for an answer.
    await fast.waitFor(1)
    expect(slow.received).toHaveLength(PER_RECEIVER)
    release()
    await slow.waitFor(events)
  })

  it('a slow host that several accounts share holds only its own slots: another account is served meanwhile', async () => {
    // A process of its own with few slots: 4 in all, 2 per account, 2 per host. Without the host
    // bound, two of the three accounts sharing the slow host would take all four.
    const own = await createTestApp()
    const worker = await createWebhookWorker(own.ctx, { pollMs: 60_000, concurrency: 4, perReceiver: 2, perHost: 2 }).start(
      silentLog as never,
    )
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    try {
      const slow = await startReceiver(async () => (await released, { status: 200 }))
      const fast = await startReceiver()
      const sharing = [await subscriber(slow.url, own.app), await subscriber(slow.url, own.app), await subscriber(slow.url, own.app)]
      const other = await subscriber(fast.url, own.app)
      const item = await manualItem(own.app)
      for (const [i, r] of sharing.entries()) {
        for (const n of [1, 2]) await buy(own.app, r, `shared-${i}-${n}`, [{ item_id: item.id, quantity: 1 }])
      }
      await slow.waitFor(2)
      await buy(own.app, other, 'beside-1', [{ item_id: item.id, quantity: 1 }])
      // Arrives while the slow host still holds both of its slots and every other event of its accounts waits.
      await fast.waitFor(1, 5_000)
      expect(slow.received).toHaveLength(2)
      release()
      await slow.waitFor(6)
      expect(new Set(slow.received.map((c) => c.headers['webhook-id'])).size).toBe(6)
    } finally {
      release()
      await worker.stop()
    }
  })
})
