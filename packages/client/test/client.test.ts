import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { createAutoItem, createItem, createReseller } from '../../../test/factory.js'
import { startReceiver } from '../../../test/receiver.js'
import { createWebhookWorker } from '../../../src/modules/webhooks/webhook-worker.js'
import {
  createResellerClient,
  verifyLegacySignature,
  verifyStandardWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
} from '../src/index.js'

// The real service on a loopback port: the client speaks HTTP to it like any integration.
const { app, ctx } = await createTestApp()
await app.listen({ port: 0, host: '127.0.0.1' })
const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`

describe('the typed client against the service', () => {
  it('buys, is refused a reused ref_id, polls the order, and verifies the webhooks it caused (both schemes)', async () => {
    const reseller = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 2, { price: 25_000 })
    const client = createResellerClient({ baseUrl, apiKey: reseller.apiKey })

    const secret = (await client.POST('/api/v1/webhook/secret')).data!.data.webhook_secret
    const receiver = await startReceiver()
    const settings = await client.PUT('/api/v1/webhook', { body: { callback_url: receiver.url, webhook_enabled: true } })
    expect(settings.data?.data.webhook_enabled).toBe(true)

    const bought = await client.POST('/api/v1/trx', { body: { ref_id: 'client-1', carts: [{ item_id: item.id, quantity: 1 }] } })
    expect(bought.response.status).toBe(200)
    expect(bought.data?.data).toMatchObject({ ref_id: 'client-1', amount: 25_000, status: 'paid' })
    expect(bought.response.headers.get('x-request-id')).toBeTruthy()

    const again = await client.POST('/api/v1/trx', { body: { ref_id: 'client-1', carts: [{ item_id: item.id, quantity: 1 }] } })
    expect(again.response.status).toBe(422)
    expect(again.error?.message).toBe('REF_ID_ALREADY_EXIST')

    const polled = await client.GET('/api/v1/trx/{ref}', { params: { path: { ref: 'client-1' } } })
    expect(polled.data?.data.status).toBe('completed')
    expect(polled.data?.data.items[0].licenses).toHaveLength(1)

    await createWebhookWorker(ctx).runOnce()
    expect(receiver.received.map((r) => r.json.event).sort()).toEqual(['order.completed', 'order.paid'])
    for (const { body, headers, json } of receiver.received) {
      // Each event's payload as of the event: order.paid says paid, though the order was born completed.
      const status = json.event === 'order.paid' ? 'paid' : 'completed'
      expect(verifyStandardWebhook(body, headers, secret)).toMatchObject({ data: { ref_id: 'client-1', status } })
      expect(verifyLegacySignature(body, headers, secret).data.invoice).toBe(bought.data?.data.invoice)
      expect(verifyWebhook(body, headers, secret).event).toMatch(/^order\./)

      const tampered = body.replace('"amount":25000', '"amount":1')
      expect(tampered).not.toBe(body)
      expect(() => verifyStandardWebhook(tampered, headers, secret)).toThrow(WebhookVerificationError)
      expect(() => verifyLegacySignature(body.replace(`"status":"${status}"`, '"status":"canceled"'), headers, secret)).toThrow(
        WebhookVerificationError,
      )
      expect(() => verifyWebhook(body, headers, `${secret.slice(0, -4)}AAA=`)).toThrow(WebhookVerificationError)
      const later = new Date(Date.now() + 10 * 60_000)
      expect(() => verifyStandardWebhook(body, headers, secret, { now: later })).toThrow(/too far/)
    }
  })

  it('opens a complaint on a line the retrieval names, and verifies its complaint.updated (S = complaint) both ways', async () => {
    const reseller = await createReseller(app, { balance: 100_000 })
    const item = await createItem(app, { order_process: 'manual', stock: 1, price: 5_000 })
    const client = createResellerClient({ baseUrl, apiKey: reseller.apiKey })
    const secret = (await client.POST('/api/v1/webhook/secret')).data!.data.webhook_secret
    const receiver = await startReceiver()
    await client.PUT('/api/v1/webhook', { body: { callback_url: receiver.url, webhook_enabled: true } })
    await client.POST('/api/v1/trx', { body: { ref_id: 'client-3', carts: [{ item_id: item.id, quantity: 1 }] } })
    const polled = await client.GET('/api/v1/trx/{ref}', { params: { path: { ref: 'client-3' } } })
    const lineId = polled.data!.data.items[0]!.order_item_id!
    const opened = await client.POST('/api/v1/trx/{ref}/complaints', {
      params: { path: { ref: 'client-3' } },
      body: { order_item_id: lineId, reason: 'not_received', message: 'Nothing yet.' },
    })
    expect(opened.response.status).toBe(201)
    expect(opened.data?.data).toMatchObject({ order_item_id: lineId, status: 'open', messages: [{ author: 'reseller' }] })
    const again = await client.POST('/api/v1/trx/{ref}/complaints', {
      params: { path: { ref: 'client-3' } },
      body: { order_item_id: lineId, reason: 'other', message: 'Again.' },
    })
    expect(again.error?.message).toBe('COMPLAINT_ALREADY_OPEN')

    await createWebhookWorker(ctx).runOnce()
    const call = receiver.received.find((c) => c.json.event === 'complaint.updated')!
    const event = verifyStandardWebhook(call.body, call.headers, secret)
    if (event.event !== 'complaint.updated') throw new Error(`expected complaint.updated, got ${event.event}`)
    expect(event.data).toMatchObject({ complaint_id: opened.data!.data.id, order_item_id: lineId, status: 'open', resolution: null })
    expect(verifyLegacySignature(call.body, call.headers, secret).event).toBe('complaint.updated')
    // Signed with S = complaint, not the complaint's status.
    expect(() =>
      verifyLegacySignature(call.body.replace('"event":"complaint.updated"', '"event":"order.paid"'), call.headers, secret),
    ).toThrow(WebhookVerificationError)
  })

  it('refuses a delivery stripped of its Standard Webhooks headers unless legacy X-Signature is allowed', async () => {
    const reseller = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 1, { price: 25_000 })
    const client = createResellerClient({ baseUrl, apiKey: reseller.apiKey })
    const secret = (await client.POST('/api/v1/webhook/secret')).data!.data.webhook_secret
    const receiver = await startReceiver()
    await client.PUT('/api/v1/webhook', { body: { callback_url: receiver.url, webhook_enabled: true } })
    await client.POST('/api/v1/trx', { body: { ref_id: 'client-2', carts: [{ item_id: item.id, quantity: 1 }] } })
    await createWebhookWorker(ctx).runOnce()
    expect(receiver.received).toHaveLength(2)

    for (const { body, headers } of receiver.received) {
      const event: WebhookEvent = verifyWebhook(body, headers, secret)
      expect(event.data).toMatchObject({ ref_id: 'client-2', event_id: headers['webhook-id'] })
      // What a relay that drops the webhook-* headers hands over: X-Signature alone.
      const stripped = Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith('webhook-')))
      expect(stripped['x-signature']).toBeTruthy()
      expect(() => verifyWebhook(body, stripped, secret)).toThrow(WebhookVerificationError)
      expect(() => verifyWebhook(body, stripped, secret)).toThrow(/allowLegacy/)
      // X-Signature does not cover the amount: that is why accepting it alone is opt-in.
      const altered = body.replace('"amount":25000', '"amount":1')
      expect(() => verifyWebhook(altered, stripped, secret)).toThrow(WebhookVerificationError)
      const legacy = verifyWebhook(altered, stripped, secret, { allowLegacy: true })
      expect(legacy.event !== 'complaint.updated' && legacy.data.amount).toBe(1)
      // Standard headers present but one missing: never falls back, even with allowLegacy.
      const { 'webhook-signature': _signature, ...unsigned } = headers
      expect(() => verifyWebhook(body, unsigned, secret, { allowLegacy: true })).toThrow(/missing webhook-id/)
    }
  })
})
