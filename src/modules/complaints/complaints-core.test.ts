import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestApp } from '../../../test/app.js'
import { admin, createItem, createReseller } from '../../../test/factory.js'
import { balanceOf, buy } from '../../../test/factory-orders.js'
import { inTransaction } from '../../db/database.js'
import { openComplaint } from './complaints.service.js'
import { refundComplaint } from './complaints.queries.js'
import { assertInvariants } from '../../../test/invariants.js'

const { app, ctx } = await createTestApp()

describe('complaints core', () => {
  it('a refund of a sent line credits its subtotal once and writes the complaint event', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const manual = await createItem(app, { order_process: 'manual', stock: 3, price: 20_000 })
    const created = (await buy(app, r, 'cc-1', [{ item_id: manual.id, quantity: 1 }])).json().data
    const lineId = (await admin(app, 'GET', `/transactions/${created.id}`)).items[0].id
    await admin(app, 'POST', `/transactions/${created.id}/items/${lineId}/send`, { product_license: 'code-1' })
    const window = { now: new Date(), days: 7 }
    const c = await openComplaint(
      ctx.db,
      window,
      r.id,
      'cc-1',
      { order_item_id: lineId, reason: 'invalid_code', message: 'bad code' },
      { name: 'api' },
    )
    expect(c).toMatchObject({ status: 'open', order_item_id: String(lineId), messages: [{ author: 'reseller', message: 'bad code' }] })
    await expect(
      openComplaint(ctx.db, window, r.id, 'cc-1', { order_item_id: lineId, reason: 'other', message: 'again' }, { name: 'api' }),
    ).rejects.toMatchObject({ code: 'COMPLAINT_ALREADY_OPEN' })
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => inTransaction(ctx.db, (trx) => refundComplaint(trx, c.id, 'op', null))),
    )
    expect(results.filter((x) => x.status === 'fulfilled').map((x) => (x as PromiseFulfilledResult<number>).value)).toEqual([20_000])
    expect(await balanceOf(app, r)).toBe(100_000)
    const { rows } = await sql<{
      payload: Record<string, unknown>
    }>`SELECT payload FROM outbox_events WHERE complaint_id = ${c.id} ORDER BY id`.execute(ctx.db)
    await assertInvariants(ctx.db)
    expect(rows.at(-1)!.payload).toMatchObject({
      status: 'closed',
      resolution: 'refunded',
      refunded_amount: 20_000,
      order_item_id: String(lineId),
    })
  })
})
