import { sql } from 'kysely'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { admin, createAutoItem, createItem, createReseller, get } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { subscriber as subscribe, xSignature } from '../../../test/factory-webhooks.js'
import { assertDeliveryTotals } from '../../../test/invariants.js'
import { startReceiver } from '../../../test/receiver.js'
import { freePort } from '../../../test/server-process.js'
import { createWebhookWorker } from './webhook-worker.js'

let now = Date.now()
const clock = { now: () => new Date(now) }
const { app, ctx } = await createTestApp({}, {}, { clock })
const worker = createWebhookWorker(ctx)

const subscriber = (url: string) => subscribe(app, url)

describe('delivery from the outbox', () => {
  it('sends order.paid and order.completed, each with the order as of its event, signed both ways', async () => {
    const receiver = await startReceiver()
    const r = await subscriber(receiver.url)
    const item = await createAutoItem(app, 3, { price: 12_500 })
    const order = (await buy(app, r, 'wh-1', [{ item_id: item.id, quantity: 2 }])).json().data
    await worker.runOnce()

    expect(receiver.received.map((c) => c.json.event).sort()).toEqual(['order.completed', 'order.paid'])
    const retrieved = (await get(app, '/trx/wh-1', r)).json().data
    for (const call of receiver.received) {
      const { data } = call.json
      // order.paid says what happened (paid), though the order was born completed.
      const status = call.json.event === 'order.paid' ? 'paid' : 'completed'
      expect(data).toMatchObject({
        id: order.id,
        invoice: order.invoice,
        ref_id: 'wh-1',
        status,
        price: 25_000,
        fees: 0,
        amount: 25_000,
        payment_code: 'saldo',
        h2h_results: [],
        smm_results: [],
      })
      // The reseller's view of the lines, with the product id the public docs' payload shows.
      expect(data.items).toEqual(retrieved.items)
      expect(data.items[0]).toMatchObject({ product_id: item.product_id, status: 'completed', quantity: 2, qty: 2 })
      expect(data.items[0].licenses).toHaveLength(2)
      expect(data.items[0]).not.toHaveProperty('id')
      expect(call.headers['x-event']).toBe(call.json.event)
      expect(call.headers['webhook-id']).toBe(data.event_id)
      expect(call.headers['x-signature']).toBe(xSignature(call, status, r.secret))
      expect(new Webhook(r.secret).verify(call.body, call.headers as Record<string, string>)).toEqual(call.json)
    }
    expect(new Set(receiver.received.map((c) => c.json.data.event_id)).size).toBe(2)

    // Relayed: the outbox row is gone, its two events are deliveries.
    expect(await ctx.db.selectFrom('outbox_events').select('id').where('order_id', '=', order.id).execute()).toEqual([])
    const listed = (await get(app, '/webhook/deliveries', r)).json()
    expect(listed.meta.total).toBe(2)
    expect(listed.data.every((d: any) => d.status === 'delivered' && d.ref_id === 'wh-1' && d.attempt_count === 1)).toBe(true)
  })

  it('derives each webhook-id from its outbox event: a relay lost in a crash goes out again under the same ids', async () => {
    const receiver = await startReceiver()
    const r = await subscriber(receiver.url)
    const item = await createAutoItem(app, 1, { price: 1_000 })
    expect((await buy(app, r, 'wh-same-id', [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
    await sql`CREATE TABLE outbox_before_crash AS SELECT * FROM outbox_events WHERE account_id = ${r.id}`.execute(ctx.db)
    const ids = async () =>
      (
        await sql<{ event: string; webhook_id: string }>`
          SELECT event, webhook_id FROM webhook_deliveries WHERE account_id = ${r.id} ORDER BY event`.execute(ctx.db)
      ).rows
    await worker.runOnce()
    const first = await ids()
    expect(first.map((d) => d.event)).toEqual(['order.completed', 'order.paid'])
    expect(new Set(first.map((d) => d.webhook_id)).size).toBe(2)
    for (const d of first) expect(d.webhook_id).toMatch(/^evt_[0-9a-f]{32}$/)

    // The crash (the worker's pool commits without waiting for the flush): the relay never happened on disk.
    await sql`DELETE FROM webhook_deliveries WHERE account_id = ${r.id}`.execute(ctx.db)
    await sql`INSERT INTO outbox_events SELECT * FROM outbox_before_crash`.execute(ctx.db)
    await worker.runOnce()
    expect(await ids()).toEqual(first)
    const sent = receiver.received.map((c) => c.headers['webhook-id']).sort()
    expect(sent).toEqual([...first, ...first].map((d) => d.webhook_id).sort())
    await sql`DROP TABLE outbox_before_crash`.execute(ctx.db)
  })

  it('vacuums the outbox after every reclaimEvery relayed rows, so no pass walks them again', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 5)
    const reclaiming = createWebhookWorker(ctx, { reclaimEvery: 3 })
    const vacuums = async () =>
      Number(
        (await sql<{ n: string }>`SELECT vacuum_count AS n FROM pg_stat_user_tables WHERE relname = 'outbox_events'`.execute(ctx.db))
          .rows[0].n,
      )
    await reclaiming.runOnce()
    const before = await vacuums()
    for (let i = 0; i < 2; i++) await buy(app, r, `reclaim-${i}`, [{ item_id: item.id, quantity: 1 }])
    expect((await reclaiming.runOnce()).relayed).toBe(2)
    expect(await vacuums()).toBe(before)
    await buy(app, r, 'reclaim-2', [{ item_id: item.id, quantity: 1 }])
    expect((await reclaiming.runOnce()).relayed).toBe(1)
    expect(await vacuums()).toBe(before + 1)
  })

  it('when the bounds hold deliveries back, they go out oldest first whatever their account', async () => {
    const receiver = await startReceiver()
    const accounts = [await subscriber(receiver.url), await subscriber(receiver.url), await subscriber(receiver.url)]
    const item = await createAutoItem(app, 6)
    for (const [n, r] of [0, 1, 2, 0, 1, 0].map((i, n) => [n, accounts[i]] as const)) {
      await buy(app, r, `fifo-${n}`, [{ item_id: item.id, quantity: 1 }])
    }
    // One attempt at a time: each pass after the first claims the oldest waiting delivery.
    await createWebhookWorker(ctx, { concurrency: 1 }).runOnce()
    const sent = receiver.received.map((c) => `${c.json.data.ref_id} ${c.json.event}`)
    expect(sent).toEqual([0, 1, 2, 3, 4, 5].flatMap((n) => [`fifo-${n} order.paid`, `fifo-${n} order.completed`]))
    // One relay of three accounts' events: each account's kept total moved by its own.
    await assertDeliveryTotals(ctx.db)
  })

  it('retires events of accounts without webhooks and sends nothing', async () => {
    const receiver = await startReceiver()
    const r = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 1)
    const order = (await buy(app, r, 'quiet', [{ item_id: item.id, quantity: 1 }])).json().data
    expect(await ctx.db.selectFrom('outbox_events').select('events').where('order_id', '=', order.id).execute()).toEqual([
      { events: ['order.paid', 'order.completed'] },
    ])
    await worker.runOnce()
    expect(await ctx.db.selectFrom('outbox_events').select('id').where('order_id', '=', order.id).execute()).toEqual([])
    expect(await ctx.db.selectFrom('webhook_deliveries').select('id').where('account_id', '=', r.id).execute()).toEqual([])
    expect(receiver.received).toHaveLength(0)
  })

  it('order.item.sent carries the one line with status sent, signed with item.sent', async () => {
    const receiver = await startReceiver()
    const r = await subscriber(receiver.url)
    const manual = await createItem(app, { order_process: 'manual', stock: 5, price: 3_000 })
    const order = (await buy(app, r, 'manual-1', [{ item_id: manual.id, quantity: 1, note: '0812' }])).json().data
    await worker.runOnce()
    expect(receiver.received.map((c) => c.json.event)).toEqual(['order.paid'])
    expect(receiver.received[0].json.data).toMatchObject({ status: 'paid', items: [{ status: 'pending', target: '0812' }] })

    const detail = await admin(app, 'GET', `/transactions/${order.id}`)
    await admin(app, 'POST', `/transactions/${order.id}/items/${detail.items[0].id}/send`, { product_license: 'CODE-123', note: 'enjoy' })
    await worker.runOnce()
    const sent = receiver.received.find((c) => c.json.event === 'order.item.sent')!
    expect(sent.json.data.item).toMatchObject({
      variant_id: manual.id,
      status: 'sent',
      product_license: 'CODE-123',
      licenses: [{ product_license: 'CODE-123', note: 'enjoy' }],
    })
    expect(sent.json.data.item).not.toHaveProperty('id')
    expect(sent.headers['x-signature']).toBe(xSignature(sent, 'item.sent', r.secret))
    const completed = receiver.received.find((c) => c.json.event === 'order.completed')!
    expect(completed.headers['x-signature']).toBe(xSignature(completed, 'completed', r.secret))
  })

  it('order.canceled after an operator cancel: the refunded state, signed with canceled', async () => {
    const receiver = await startReceiver()
    const r = await subscriber(receiver.url)
    const manual = await createItem(app, { order_process: 'manual', stock: 5, price: 4_000 })
    const order = (await buy(app, r, 'cancel-1', [{ item_id: manual.id, quantity: 2 }])).json().data
    await admin(app, 'POST', `/transactions/${order.id}/cancel`, { reason: 'out of stock upstream' })
    await worker.runOnce()
    const canceled = receiver.received.find((c) => c.json.event === 'order.canceled')!
    expect(canceled.json.data).toMatchObject({
      ref_id: 'cancel-1',
      status: 'canceled',
      amount: 8_000,
      items: [{ status: 'refunded', quantity: 2 }],
    })
    expect(canceled.headers['x-signature']).toBe(xSignature(canceled, 'canceled', r.secret))
    expect(receiver.received.map((c) => c.json.event).sort()).toEqual(['order.canceled', 'order.paid'])
  })

  it('keeps a payload under 32 KB: licenses left out, truncated: true', async () => {
    const receiver = await startReceiver()
    const r = await subscriber(receiver.url)
    const item = await createItem(app, { order_process: 'auto', price: 1_000 })
    await admin(app, 'POST', `/items/${item.id}/licenses`, { licenses: Array.from({ length: 12 }, (_, i) => `${i}-${'L'.repeat(3990)}`) })
    await buy(app, r, 'big', [{ item_id: item.id, quantity: 12 }])
    await worker.runOnce()
    for (const call of receiver.received) {
      expect(Buffer.byteLength(call.body)).toBeLessThan(32 * 1024)
      expect(call.json.data).toMatchObject({ truncated: true, items: [{ quantity: 12, licenses: [], product_license: '' }] })
    }
  })
})

describe('retries on the schedule (injected clock)', () => {
  it('a dead receiver gets five fast attempts, stays retrying, then the tail, then failed; redelivery', async () => {
    const deadUrl = `http://127.0.0.1:${await freePort()}/hook`
    const r = await subscriber(deadUrl)
    const item = await createAutoItem(app, 1)
    await buy(app, r, 'dead-1', [{ item_id: item.id, quantity: 1 }])
    const start = now
    const offsets: number[] = []
    const attempt = async (atSeconds: number) => {
      now = start + atSeconds * 1000
      const { attempted } = await worker.runOnce()
      if (attempted > 0) offsets.push(atSeconds)
    }
    // Each second up to 20 s, as a poll would: attempts only when due.
    for (let s = 0; s <= 20; s++) await attempt(s)
    expect(offsets).toEqual([0, 1, 3, 7, 15])
    const deliveries = () => ctx.db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', r.id).orderBy('id').execute()
    for (const d of await deliveries()) {
      expect(d).toMatchObject({ status: 'retrying', failures: 5 })
      expect(d.next_attempt_at!.getTime()).toBe(start + 15_000 + 60_000)
    }
    await attempt(74)
    expect(offsets).toHaveLength(5)
    const listed = (await get(app, '/webhook/deliveries', r)).json().data
    expect(listed.map((d: any) => d.status)).toEqual(['retrying', 'retrying'])
    expect(listed[0].attempts).toHaveLength(5)
    expect(listed[0].attempts.every((a: any) => a.status_code === null && a.error)).toBe(true)

    // The tail: +1 min, +5 min, +30 min, +2 h, +6 h after each failure.
    for (const at of [75, 375, 2175, 9375]) await attempt(at)
    expect((await deliveries()).map((d) => d.status)).toEqual(['retrying', 'retrying'])
    await attempt(9375 + 21_599)
    expect(offsets).toHaveLength(9)
    await attempt(9375 + 21_600)
    expect(offsets).toEqual([0, 1, 3, 7, 15, 75, 375, 2175, 9375, 30_975])
    for (const d of await deliveries()) expect(d).toMatchObject({ status: 'failed', failures: 10, next_attempt_at: null })
    await attempt(100_000)
    expect(offsets).toHaveLength(10)

    // Redelivery: the receiver is back (at a new URL); same webhook-id, a fresh schedule.
    const receiver = await startReceiver()
    await app.inject({ method: 'PUT', url: '/api/v1/webhook', headers: r.headers, payload: { callback_url: receiver.url } })
    const [failed] = await deliveries()
    const retried = await app.inject({ method: 'POST', url: `/api/v1/webhook/deliveries/${failed.id}/retry`, headers: r.headers })
    expect(retried.statusCode).toBe(200)
    expect(retried.json().data).toMatchObject({ id: failed.id, status: 'pending', attempt_count: 10 })
    await worker.runOnce()
    expect(receiver.received).toHaveLength(1)
    expect(receiver.received[0].headers['webhook-id']).toBe(failed.webhook_id)
    const after = (await get(app, '/webhook/deliveries?status=delivered', r)).json().data
    expect(after).toMatchObject([{ id: failed.id, attempt_count: 11, status: 'delivered' }])
  })

  it("redelivery of another account's delivery is 404; the operator can redeliver any", async () => {
    const receiver = await startReceiver(() => ({ status: 500 }))
    const owner = await subscriber(receiver.url)
    const other = await createReseller(app)
    const item = await createAutoItem(app, 1)
    await buy(app, owner, 'own-1', [{ item_id: item.id, quantity: 1 }])
    await worker.runOnce()
    const [delivery] = await ctx.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'webhook_id'])
      .where('account_id', '=', owner.id)
      .execute()
    const foreign = await app.inject({ method: 'POST', url: `/api/v1/webhook/deliveries/${delivery.id}/retry`, headers: other.headers })
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json()).toEqual({ message: 'DELIVERY_NOT_FOUND' })
    const wrongAccount = await app.inject({
      method: 'POST',
      url: `/api/admin/v1/resellers/${other.id}/webhook-deliveries/${delivery.id}/retry`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(wrongAccount.statusCode).toBe(404)

    receiver.answerWith(() => ({ status: 204 }))
    const retried = await admin(app, 'POST', `/resellers/${owner.id}/webhook-deliveries/${delivery.id}/retry`)
    expect(retried).toMatchObject({ id: delivery.id, status: 'pending' })
    await worker.runOnce()
    expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(delivery.webhook_id)
    expect((await admin(app, 'GET', `/resellers/${owner.id}/webhook-deliveries?status=delivered`)).map((d: any) => d.id)).toContain(
      delivery.id,
    )
  })

  it('an account that switched webhooks off fails its pending deliveries at once', async () => {
    const receiver = await startReceiver(() => ({ status: 500 }))
    const r = await subscriber(receiver.url)
    const item = await createAutoItem(app, 1)
    await buy(app, r, 'off-1', [{ item_id: item.id, quantity: 1 }])
    await worker.runOnce()
    await app.inject({ method: 'PUT', url: '/api/v1/webhook', headers: r.headers, payload: { webhook_enabled: false } })
    now += 1_000
    await worker.runOnce()
    const listed = (await get(app, '/webhook/deliveries', r)).json().data
    expect(listed.map((d: any) => d.status)).toEqual(['failed', 'failed'])
    expect(listed[0].attempts.at(-1).error).toContain('switched off')
    expect(receiver.received).toHaveLength(2)
  })
})

describe('the injected clock', () => {
  it('POST /v1/webhook/test and redelivery go by it, as the worker does', async () => {
    // A day ahead of the real clock: a request timed by the real one would show it.
    now += 86_400_000
    const at = () => new Date(now).toISOString()
    const receiver = await startReceiver(() => ({ status: 500 }))
    const r = await subscriber(receiver.url)
    const tested = (await app.inject({ method: 'POST', url: '/api/v1/webhook/test', headers: r.headers })).json().data
    const [call] = receiver.received
    expect(call.headers['x-timestamp']).toBe(at())
    expect(call.headers['webhook-timestamp']).toBe(String(Math.floor(now / 1000)))
    expect(call.json.timestamp).toBe(at())
    const [listed] = (await get(app, '/webhook/deliveries', r)).json().data
    expect(listed).toMatchObject({ id: tested.delivery_id, status: 'failed', attempts: [{ attempted_at: at() }] })

    now += 60_000
    const retried = await app.inject({ method: 'POST', url: `/api/v1/webhook/deliveries/${tested.delivery_id}/retry`, headers: r.headers })
    expect(retried.json().data).toMatchObject({ status: 'pending', next_attempt_at: at() })
    now += 60_000
    const byOperator = await admin(app, 'POST', `/resellers/${r.id}/webhook-deliveries/${tested.delivery_id}/retry`)
    expect(byOperator).toMatchObject({ status: 'pending', next_attempt_at: at() })
  })
})
