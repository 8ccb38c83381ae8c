import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createAutoItem, createItem, createReseller, get } from '../../../test/factory.js'
import { balanceOf, buy, stockOf } from '../../../test/factory-orders.js'

const { app, ctx } = await createTestApp()

describe('manual fulfilment and operator cancel', () => {
  it('keeps a manual order paid until the operator sends it, then completes it', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const manual = await createItem(app, { order_process: 'manual', stock: 3, price: 20_000 })
    const created = (await buy(app, r, 'm-1', [{ item_id: manual.id, quantity: 1, note: 'user@example.com' }])).json().data
    expect((await get(app, '/trx/m-1', r)).json().data.status).toBe('paid')
    expect(await stockOf(app, r, manual.id)).toBe(2)
    const order = await admin(app, 'GET', `/transactions/${created.id}`)
    const lineId = order.items[0].id
    const sent = await admin(app, 'POST', `/transactions/${created.id}/items/${lineId}/send`, {
      product_license: 'netflix: a@b.c / pw',
      note: 'enjoy',
    })
    expect(sent.status).toBe('completed')
    const view = (await get(app, '/trx/m-1', r)).json().data
    expect(view.status).toBe('completed')
    expect(view.items[0]).toMatchObject({
      status: 'sent',
      product_license: 'netflix: a@b.c / pw',
      licenses: [{ product_license: 'netflix: a@b.c / pw', note: 'enjoy' }],
    })
    const rows = await ctx.db
      .selectFrom('outbox_events')
      .select(['events', 'order_line_id'])
      .where('order_id', '=', created.id)
      .orderBy('id')
      .execute()
    const events = rows.flatMap((r) => r.events.map((event) => ({ event, order_line_id: r.order_line_id })))
    expect(events).toEqual([
      { event: 'order.paid', order_line_id: null },
      { event: 'order.item.sent', order_line_id: lineId },
      { event: 'order.completed', order_line_id: null },
    ])
    const twice = await app.inject({
      method: 'POST',
      url: `/api/admin/v1/transactions/${created.id}/items/${lineId}/send`,
      headers: { authorization: 'Bearer test-admin-token-0123456789' },
    })
    expect([twice.statusCode, twice.json().message]).toEqual([409, 'INVALID_STATE'])
  })

  it('refunds undelivered lines exactly once on cancel, even when cancels race', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const manual = await createItem(app, { order_process: 'manual', stock: 5, price: 20_000 })
    const auto = await createAutoItem(app, 2, { price: 5_000 })
    const created = (
      await buy(app, r, 'c-1', [
        { item_id: manual.id, quantity: 2 },
        { item_id: auto.id, quantity: 1 },
      ])
    ).json().data
    expect(await balanceOf(app, r)).toBe(55_000)
    const cancels = await Promise.all(
      Array.from({ length: 5 }, () =>
        app.inject({
          method: 'POST',
          url: `/api/admin/v1/transactions/${created.id}/cancel`,
          headers: { authorization: 'Bearer test-admin-token-0123456789' },
          payload: { reason: 'out of accounts' },
        }),
      ),
    )
    expect(cancels.filter((c) => c.statusCode === 200)).toHaveLength(1)
    expect(cancels.filter((c) => c.statusCode === 409)).toHaveLength(4)
    // the auto line was delivered, so the order completes with the manual part refunded
    expect(await balanceOf(app, r)).toBe(95_000)
    expect(await stockOf(app, r, manual.id)).toBe(5)
    const view = (await get(app, '/trx/c-1', r)).json().data
    expect(view.status).toBe('completed')
    expect(view.items.map((i: any) => i.status)).toEqual(['refunded', 'completed'])
    const refunds = (await get(app, '/balance/mutations?type=refund', r)).json().data
    expect(refunds).toHaveLength(1)
    expect(refunds[0]).toMatchObject({ direction: 'credit', amount: 40_000 })
  })

  it('cancels a wholly manual order to canceled with the whole amount back', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    const manual = await createItem(app, { order_process: 'manual', unlimited_stock: true, price: 12_000 })
    const created = (await buy(app, r, 'c-2', [{ item_id: manual.id, quantity: 2 }])).json().data
    const result = await admin(app, 'POST', `/transactions/${created.id}/cancel`, { reason: 'customer changed mind' })
    expect(result).toMatchObject({ status: 'canceled', refunded_lines: 1 })
    expect(await balanceOf(app, r)).toBe(50_000)
    const events = await ctx.db.selectFrom('outbox_events').select('events').where('order_id', '=', created.id).orderBy('id').execute()
    expect(events.flatMap((e) => e.events)).toEqual(['order.paid', 'order.canceled'])
  })
})
