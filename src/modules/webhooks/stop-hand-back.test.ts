import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { startReceiver } from '../../../test/receiver.js'
import { createWebhookWorker } from './webhook-worker.js'

// A stopping worker hands back the deliveries it claimed and that are still unanswered.
const { app, ctx } = await createTestApp()
const quiet = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {}, trace: () => {}, fatal: () => {}, level: 'silent' }

describe('webhook worker stop', () => {
  it('after its grace, an unanswered delivery is due at once for another worker; the late answer moves nothing', async () => {
    // The first attempt is answered only when the test says so: a receiver still silent at the stop.
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    const receiver = await startReceiver(async (_request, index) => {
      if (index === 0) await released
      return { status: 200 }
    })
    const r = await createReseller(app, { balance: 100_000 })
    await app.inject({ method: 'POST', url: '/api/v1/webhook/secret', headers: r.headers })
    await app.inject({
      method: 'PUT',
      url: '/api/v1/webhook',
      headers: r.headers,
      payload: { callback_url: receiver.url, webhook_enabled: true },
    })
    const item = await createItem(app, { order_process: 'manual', unlimited_stock: true, price: 1_000 })
    const firstWorker = createWebhookWorker(ctx, { pollMs: 60_000, stopGraceMs: 200 })
    const first = await firstWorker.start(quiet as never)
    expect((await buy(app, r, 'stop-1', [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
    await receiver.waitFor(1)
    const delivery = () => ctx.db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', r.id).executeTakeFirstOrThrow()
    const leased = await delivery()
    expect(leased.claims).toBe(1)

    // The stop returns while the receiver still holds the attempt: it did not wait for the answer.
    await first.stop()
    const handedBack = await delivery()
    expect(handedBack).toMatchObject({ status: 'pending', claims: 2 })
    expect(handedBack.next_attempt_at!.getTime()).toBeLessThan(leased.next_attempt_at!.getTime())

    expect(await createWebhookWorker(ctx).runOnce()).toMatchObject({ attempted: 1 })
    // The first attempt's answer arrives after the hand-back: its record is dropped, the second one
    // stands. A pass of the stopped worker (nothing left to claim) returns once its every attempt,
    // the late one included, is answered and recorded or dropped.
    release()
    expect(await firstWorker.runOnce()).toEqual({ relayed: 0, attempted: 0 })
    const done = await delivery()
    expect(done).toMatchObject({ status: 'delivered', claims: 3, failures: 0 })
    expect(done.attempts).toHaveLength(1)
    expect(new Set(receiver.received.map((c) => c.headers['webhook-id'])).size).toBe(1)
  })
})
