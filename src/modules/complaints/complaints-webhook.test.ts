import { createRequire } from 'node:module'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createItem, get, type Reseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { subscriber, xSignature } from '../../../test/factory-webhooks.js'
import { startReceiver, type Received } from '../../../test/receiver.js'
import { inTransaction } from '../../db/database.js'
import { createWebhookWorker } from '../webhooks/index.js'
import { lockComplaint, recordStep, refundComplaint } from './complaints.queries.js'

const { app, ctx } = await createTestApp()
const worker = createWebhookWorker(ctx)

/** The Node verification code GET /v1/webhook/docs hands out, loaded as a receiver runs it. */
async function handedOutVerifiers(r: Reseller) {
  const code: string = (await get(app, '/webhook/docs', r)).json().data.signatures.verification_code.node
  const module = { exports: {} as Record<string, (body: string, headers: object, secret: string) => boolean> }
  new Function('module', 'require', code)(module, createRequire(import.meta.url))
  return module.exports as { verifyXSignature: Verify; verifyStandardWebhook: Verify }
}
type Verify = (body: string, headers: object, secret: string) => boolean

const eventsOf = (received: Received[], event: string) => received.filter((c) => c.json.event === event)

describe('complaint.updated', () => {
  it('is sent on every step with the complaint as of it, signed both ways (X-Signature with S = complaint)', async () => {
    const receiver = await startReceiver()
    const r = await subscriber(app, receiver.url)
    const item = await createItem(app, { order_process: 'manual', stock: 2, price: 20_000 })
    const order = (await buy(app, r, 'cw-1', [{ item_id: item.id, quantity: 1 }])).json().data
    const lineId: string = (await get(app, '/trx/cw-1', r)).json().data.items[0].order_item_id
    await worker.runOnce()
    // order.paid's items name each line as the retrieval does.
    const [paid] = eventsOf(receiver.received, 'order.paid')
    expect(paid!.json.data.items.map((l: { order_item_id: string }) => l.order_item_id)).toEqual([lineId])

    await admin(app, 'POST', `/transactions/${order.id}/items/${lineId}/send`, { product_license: 'CODE-1' })
    const opened = await app.inject({
      method: 'POST',
      url: '/api/v1/trx/cw-1/complaints',
      headers: r.headers,
      payload: { order_item_id: lineId, reason: 'invalid_code', message: 'Already redeemed.' },
    })
    expect(opened.statusCode, opened.body).toBe(201)
    const id: number = opened.json().data.id
    await inTransaction(ctx.db, async (trx) => {
      await lockComplaint(trx, id)
      await recordStep(trx, id, { author: 'operator', authorName: 'op', action: 'reply', body: 'Checking.', status: 'answered' })
    })
    await inTransaction(ctx.db, (trx) => refundComplaint(trx, id, 'op', null))
    await worker.runOnce()

    const steps = eventsOf(receiver.received, 'complaint.updated')
    expect(steps.map((c) => `${c.json.data.status} ${c.json.data.last_message.author}`).sort()).toEqual([
      'answered operator',
      'closed operator',
      'open reseller',
    ])
    const closed = steps.find((c) => c.json.data.status === 'closed')!
    expect(closed.json.data).toEqual({
      event_id: closed.headers['webhook-id'],
      complaint_id: id,
      ref_id: 'cw-1',
      invoice: order.invoice,
      order_item_id: lineId,
      reason: 'invalid_code',
      status: 'closed',
      resolution: 'refunded',
      refunded_amount: 20_000,
      last_message: { author: 'operator', message: 'Refunded 20000.', created_at: expect.any(String) },
      updated_at: expect.any(String),
    })
    const { verifyXSignature, verifyStandardWebhook } = await handedOutVerifiers(r)
    for (const call of steps) {
      expect(call.headers['x-event']).toBe('complaint.updated')
      expect(call.headers['x-signature']).toBe(xSignature(call, 'complaint', r.secret))
      expect(new Webhook(r.secret).verify(call.body, call.headers as Record<string, string>)).toEqual(call.json)
      expect(verifyXSignature(call.body, call.headers, r.secret)).toBe(true)
      expect(verifyStandardWebhook(call.body, call.headers, r.secret)).toBe(true)
      // Signed with the complaint's status instead of `complaint`, the check must fail.
      expect(xSignature(call, call.json.data.status, r.secret)).not.toBe(call.headers['x-signature'])
    }
  })
})
