import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createItem, get } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { subscriber } from '../../../test/factory-webhooks.js'
import { startReceiver, type Received } from '../../../test/receiver.js'
import { createWebhookWorker } from './webhook-worker.js'

// docs/design.md §8: order.item.sent's item.note is the seller's delivery note, as the public docs'
// example shows it; every item, in payloads and retrieval, carries buyer_note and seller_note.
const { app, ctx } = await createTestApp()
const worker = createWebhookWorker(ctx)

const event = (received: Received[], name: string) => received.find((c) => c.json.event === name)?.json.data

async function sendManual(ref: string, buyerNote: string | undefined, sellerNote: string | undefined) {
  const receiver = await startReceiver()
  const r = await subscriber(app, receiver.url)
  const manual = await createItem(app, { order_process: 'manual', stock: 2, price: 3_325 })
  const res = await buy(app, r, ref, [{ item_id: manual.id, quantity: 1, ...(buyerNote !== undefined && { note: buyerNote }) }])
  expect(res.statusCode).toBe(200)
  const order = res.json().data
  const line = (await admin(app, 'GET', `/transactions/${order.id}`)).items[0]
  await worker.runOnce()
  await admin(app, 'POST', `/transactions/${order.id}/items/${line.id}/send`, {
    product_license: 'user|pass',
    ...(sellerNote !== undefined && { note: sellerNote }),
  })
  await worker.runOnce()
  return { r, received: receiver.received }
}

describe('buyer_note and seller_note', () => {
  it("order.item.sent: item.note is the seller's delivery note, buyer_note the buyer's; both on every item", async () => {
    const { r, received } = await sendManual('notes-1', 'buyer@example.com', 'https://t.me/shop/4')
    const sent = event(received, 'order.item.sent')
    expect(sent.item).toMatchObject({
      note: 'https://t.me/shop/4',
      buyer_note: 'buyer@example.com',
      seller_note: 'https://t.me/shop/4',
      status: 'sent',
    })
    // The order's items keep the buyer's note under note, and carry both names too.
    expect(sent.items[0]).toMatchObject({ note: 'buyer@example.com', buyer_note: 'buyer@example.com', seller_note: 'https://t.me/shop/4' })
    const paid = event(received, 'order.paid')
    expect(paid.items[0]).toMatchObject({ note: 'buyer@example.com', buyer_note: 'buyer@example.com', seller_note: null })

    const retrieved = (await get(app, '/trx/notes-1', r)).json().data
    expect(retrieved.items[0]).toMatchObject({
      note: 'buyer@example.com',
      buyer_note: 'buyer@example.com',
      seller_note: 'https://t.me/shop/4',
    })
  })

  it('no delivery note: item.note is null, not the buyer’s note', async () => {
    const { received } = await sendManual('notes-2', 'buyer@example.com', undefined)
    const sent = event(received, 'order.item.sent')
    expect(sent.item.note).toBeNull()
    expect(sent.item.seller_note).toBeNull()
    expect(sent.item.buyer_note).toBe('buyer@example.com')
  })

  it('no buyer note: buyer_note is null on the item', async () => {
    const { r, received } = await sendManual('notes-3', undefined, 'enjoy')
    expect(event(received, 'order.item.sent').item).toMatchObject({ note: 'enjoy', buyer_note: null, seller_note: 'enjoy' })
    expect((await get(app, '/trx/notes-3', r)).json().data.items[0]).toMatchObject({ note: null, buyer_note: null })
  })
})
