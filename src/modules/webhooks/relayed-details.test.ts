import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { createAutoItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { idleCapacity } from '../../../test/webhook-capacity.js'
import { prepareMessages, type DeliveryDeps } from './delivery.js'
import { relayOutbox } from './delivery.queries.js'

const { app, ctx } = await createTestApp()
const deps: DeliveryDeps = { db: ctx.webhookDb, vault: ctx.vault, transport: ctx.webhookTransport, clock: ctx.clock, production: false }

describe("the relay's batches carry their orders' details", () => {
  it('once per order, building the same messages as a read of the orders would', async () => {
    const r = await createReseller(app, { balance: 1_000_000 })
    await app.inject({ method: 'POST', url: '/api/v1/webhook/secret', headers: r.headers })
    const hook = { callback_url: 'http://127.0.0.1:9/hook', webhook_enabled: true }
    expect((await app.inject({ method: 'PUT', url: '/api/v1/webhook', headers: r.headers, payload: hook })).statusCode).toBe(200)
    const [a, b] = [await createAutoItem(app, 4, { price: 1_500 }), await createAutoItem(app, 2, { price: 700 })]
    expect(
      (
        await buy(app, r, 'relayed-1', [
          { item_id: a.id, quantity: 2 },
          { item_id: b.id, quantity: 1 },
        ])
      ).statusCode,
    ).toBe(200)
    expect((await buy(app, r, 'relayed-2', [{ item_id: a.id, quantity: 1 }])).statusCode).toBe(200)

    const now = new Date()
    const { claimed } = await relayOutbox(ctx.webhookDb, 10, idleCapacity(now, 10, new Date(now.getTime() + 60_000)))
    expect(claimed.filter((d) => d.account_id === r.id)).toHaveLength(4)
    // Two events per order, the detail on one of them.
    const carrying = claimed.filter((d) => d.order_detail)
    expect(carrying.map((d) => d.order_id).sort()).toEqual([...new Set(claimed.map((d) => d.order_id))].sort())

    const fromRelay = await prepareMessages(deps, claimed, now)
    const fromRead = await prepareMessages(
      deps,
      claimed.map(({ order_detail: _carried, ...d }) => d),
      now,
    )
    expect(fromRelay.size).toBe(4)
    expect(fromRelay).toEqual(fromRead)
    const first = JSON.parse([...fromRelay.values()].find((m) => m.refId === 'relayed-1')!.body)
    expect(first.data.items.map((i: { licenses: unknown[] }) => i.licenses.length)).toEqual([2, 1])
    expect(first.data.price).toBe(3_700)
  })
})
