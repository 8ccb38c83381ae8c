import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { createAutoItem, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'

const { app, ctx } = await createTestApp()

describe('concurrency', () => {
  it('cancels racing purchases and lock creation on the same items without deadlock errors', async () => {
    const resellers = await Promise.all([0, 1].map(() => createReseller(app, { balance: 10_000_000 })))
    const first = await createItem(app, { order_process: 'manual', stock: 500, price: 1_000 })
    const second = await createItem(app, { order_process: 'manual', stock: 500, price: 1_000 })
    const orders = []
    for (let i = 0; i < 8; i++)
      orders.push(
        (
          await buy(app, resellers[0], `cx-${i}`, [
            { item_id: second.id, quantity: 1 },
            { item_id: first.id, quantity: 1 },
          ])
        ).json().data.id,
      )
    const adminHeaders = { authorization: 'Bearer test-admin-token-0123456789' }
    const results = await Promise.all([
      ...orders.map((id) =>
        app.inject({ method: 'POST', url: `/api/admin/v1/transactions/${id}/cancel`, headers: adminHeaders, payload: { reason: 'race' } }),
      ),
      ...Array.from({ length: 24 }, (_, n) =>
        buy(app, resellers[1], `cy-${n}`, [
          { item_id: n % 2 ? first.id : second.id, quantity: 1 },
          { item_id: second.id, quantity: 1 },
        ]),
      ),
      ...Array.from({ length: 8 }, () =>
        app.inject({
          method: 'POST',
          url: '/api/v1/item/lock',
          headers: resellers[1].headers,
          payload: { item_id: second.id, quantity: 1 },
        }),
      ),
    ])
    expect(results.filter((r) => r.statusCode >= 500).map((r) => `${r.statusCode} ${r.body}`)).toEqual([])
    await assertInvariants(ctx.db, { [first.id]: 500 })
  })

  it('keeps money and stock exact under 240 simultaneous purchases with racing ref_ids', async () => {
    const resellers = await Promise.all([0, 1, 2].map(() => createReseller(app, { balance: 120_000 })))
    const items = await Promise.all([0, 1, 2].map(() => createAutoItem(app, 15, { price: 7_000 })))
    const manual = await createItem(app, { order_process: 'manual', stock: 10, price: 3_000 })
    const itemIds = [...items.map((i) => i.id), manual.id]
    const requests = Array.from({ length: 240 }, (_, n) => {
      const reseller = resellers[n % 3]
      // every fourth request reuses a ref_id that another request is racing for
      const ref = n % 4 === 0 ? `race-${n % 12}` : `u-${n}`
      return buy(app, reseller, ref, [{ item_id: itemIds[n % 4], quantity: 1 + (n % 2) }])
    })
    const responses = await Promise.all(requests)
    const outcomes = responses.map((r) => `${r.statusCode} ${r.json().message}`)
    expect(
      outcomes.filter((o) => !['200 OK', '400 BALANCE_IS_INSUFFICIENT', '422 OUT_OF_STOCK', '422 REF_ID_ALREADY_EXIST'].includes(o)),
    ).toEqual([])
    const succeeded = responses.filter((r) => r.statusCode === 200).length
    const ids = resellers.map((r) => r.id)
    const { rows } = await sql<{ n: number }>`select count(*) as n from orders where account_id in (${sql.join(ids)})`.execute(ctx.db)
    expect(succeeded).toBeGreaterThan(0)
    expect(rows[0].n).toBe(succeeded)
    // every racing ref_id ended as exactly one order, and its losers were shown that order
    for (const response of responses.filter((r) => r.json().message === 'REF_ID_ALREADY_EXIST')) {
      expect(response.json().data.ref_id).toMatch(/^race-/)
    }
    await assertInvariants(ctx.db, { [manual.id]: 10 })
  })
})
