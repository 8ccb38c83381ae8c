import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createAutoItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { idleCapacity } from '../../../test/webhook-capacity.js'
import { prepareMessages, type DeliveryDeps } from './delivery-attempts.js'
import { claimDue, relayOutbox } from './delivery.queries.js'

const { app, ctx } = await createTestApp()
const deps: DeliveryDeps = { db: ctx.webhookDb, vault: ctx.vault, transport: ctx.webhookTransport, clock: ctx.clock, production: false }

describe('the relay builds each event’s payload once', () => {
  it('stores it on every delivery: a later claim sends the same bytes whatever the order and the clock did since', async () => {
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
    // Room for two: the other two deliveries are created unclaimed, and carry their payload all the same.
    const relayed = await relayOutbox(ctx.webhookDb, 10, idleCapacity(now, 2, new Date(now.getTime() + 60_000)))
    expect(relayed.created).toBe(4)
    const stored = await sql<{ event: string; status: string; licenses: number; encrypted: boolean }>`
      SELECT event, payload #>> '{order,order,status}' AS status, jsonb_array_length(payload #> '{order,lines,0,licenses}') AS licenses,
             payload::text NOT LIKE '%LIC-%' AS encrypted
        FROM webhook_deliveries WHERE account_id = ${r.id} ORDER BY id`.execute(ctx.db)
    // order.paid says paid though the order was born completed; licenses are kept encrypted.
    expect(stored.rows).toEqual([
      { event: 'order.paid', status: 'paid', licenses: 2, encrypted: true },
      { event: 'order.completed', status: 'completed', licenses: 2, encrypted: true },
      { event: 'order.paid', status: 'paid', licenses: 1, encrypted: true },
      { event: 'order.completed', status: 'completed', licenses: 1, encrypted: true },
    ])
    const first = await prepareMessages(deps, relayed.claimed, now)
    const paid = JSON.parse([...first.values()][0].body)
    expect(paid).toMatchObject({ event: 'order.paid', data: { ref_id: 'relayed-1', status: 'paid', price: 3_700 } })
    expect(paid.data.items.map((i: { licenses: unknown[] }) => i.licenses.length)).toEqual([2, 1])

    // Later: the order's item reads otherwise now, and the clock moved. Every delivery is claimed again.
    await admin(app, 'PATCH', `/items/${a.id}`, { description: 'changed after the event' })
    await sql`UPDATE webhook_deliveries SET claims = claims + 1, next_attempt_at = ${now} WHERE account_id = ${r.id}`.execute(ctx.db)
    const later = new Date(now.getTime() + 3_600_000)
    const { claimed } = await claimDue(ctx.webhookDb, idleCapacity(later, 10, new Date(later.getTime() + 60_000)))
    const again = await prepareMessages(deps, claimed, later)
    expect(again.size).toBe(4)
    expect(first.size).toBe(2)
    for (const d of relayed.claimed) expect(again.get(d.id)).toEqual(first.get(d.id))
    const bodies = [...again.values()].map((m) => JSON.parse(m.body))
    expect(bodies.map((m) => `${m.data.ref_id} ${m.event} ${m.data.status}`).sort()).toEqual([
      'relayed-1 order.completed completed',
      'relayed-1 order.paid paid',
      'relayed-2 order.completed completed',
      'relayed-2 order.paid paid',
    ])
    // The body's timestamp is the event's, not the attempt's.
    for (const m of bodies) expect(new Date(m.timestamp).getTime()).toBeLessThanOrEqual(now.getTime())
    expect(bodies.every((m) => m.data.items.every((i: { description: string | null }) => i.description === null))).toBe(true)
  })

  it('a delivery relayed before payloads were stored goes out with the order’s current state', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    await app.inject({ method: 'POST', url: '/api/v1/webhook/secret', headers: r.headers })
    const hook = { callback_url: 'http://127.0.0.1:9/hook', webhook_enabled: true }
    await app.inject({ method: 'PUT', url: '/api/v1/webhook', headers: r.headers, payload: hook })
    const item = await createAutoItem(app, 1, { price: 2_000 })
    await buy(app, r, 'legacy-1', [{ item_id: item.id, quantity: 1 }])
    const now = new Date()
    await relayOutbox(ctx.webhookDb, 10, idleCapacity(now, 0))
    await sql`UPDATE webhook_deliveries SET payload = NULL WHERE account_id = ${r.id}`.execute(ctx.db)
    const { claimed } = await claimDue(ctx.webhookDb, idleCapacity(now, 10, new Date(now.getTime() + 60_000)))
    const mine = claimed.filter((d) => d.account_id === r.id)
    expect(mine.map((d) => d.payload)).toEqual([null, null])
    const messages = [...(await prepareMessages(deps, mine, now)).values()].map((m) => JSON.parse(m.body))
    expect(messages.map((m) => `${m.event} ${m.data.status} ${m.timestamp}`).sort()).toEqual([
      `order.completed completed ${now.toISOString()}`,
      `order.paid completed ${now.toISOString()}`,
    ])
  })
})
