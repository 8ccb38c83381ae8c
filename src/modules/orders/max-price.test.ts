import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { createAutoItem, createItem, createOpenDenomination, createReseller } from '../../../test/factory.js'
import { balanceOf, buy } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'

// docs/design.md §11c: a cart line's max_price bounds its unit price; above it the purchase (and the sandbox)
// is PRICE_ABOVE_MAX with the line's field and the price, nothing stored, the ref_id still free.
const { app, ctx } = await createTestApp()

const sandbox = (r: { headers: Record<string, string> }, payload: object) =>
  app.inject({ method: 'POST', url: '/api/v1/order/sandbox', headers: r.headers, payload })
const answer = (res: { statusCode: number; json(): any }) => [res.statusCode, res.json()]
const stored = async (accountId: number) => {
  const { rows } = await sql<{ orders: number; sandbox: number }>`
    SELECT (SELECT count(*)::int FROM orders WHERE account_id = ${accountId}) AS orders,
           (SELECT count(*)::int FROM sandbox_orders WHERE account_id = ${accountId}) AS sandbox`.execute(ctx.db)
  return rows[0]
}
const aboveMax = (field: string, itemId: number, price: number) => ({
  message: 'PRICE_ABOVE_MAX',
  errors: { [field]: [`the price is now ${price}; send max_price ≥ ${price} or leave it out`] },
  data: { item_id: itemId, price },
})

describe('max_price on a purchase', () => {
  it('a unit price above max_price is 422 PRICE_ABOVE_MAX: nothing debited or stored, and the same ref_id then buys', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 5, { price: 10_150 })
    const refused = await buy(app, r, 'mp-1', [{ item_id: item.id, quantity: 2, max_price: 10_149 }])
    expect(answer(refused)).toEqual([422, aboveMax('carts.0.max_price', item.id, 10_150)])
    expect(await balanceOf(app, r)).toBe(100_000)
    expect(await stored(r.id)).toEqual({ orders: 0, sandbox: 0 })

    // Equal is fine.
    const bought = await buy(app, r, 'mp-1', [{ item_id: item.id, quantity: 2, max_price: 10_150 }])
    expect(bought.statusCode, bought.body).toBe(200)
    expect(bought.json().data.amount).toBe(20_300)
    expect(await balanceOf(app, r)).toBe(100_000 - 20_300)
    await assertInvariants(ctx.db)
  })

  it('names the line at fault in a cart of several, and a line without max_price has no bound', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const cheap = await createItem(app, { order_process: 'manual', unlimited_stock: true, price: 1_000 })
    const dear = await createItem(app, { order_process: 'manual', unlimited_stock: true, price: 9_000 })
    const carts = [
      { item_id: cheap.id, quantity: 1, max_price: 1_000 },
      { item_id: dear.id, quantity: 3 },
      { item_id: dear.id, quantity: 1, max_price: 8_999 },
    ]
    expect(answer(await buy(app, r, 'mp-multi', carts))).toEqual([422, aboveMax('carts.2.max_price', dear.id, 9_000)])
    expect(await balanceOf(app, r)).toBe(100_000)
    // null means no bound, as an absent field.
    const res = await buy(app, r, 'mp-multi', [...carts.slice(0, 2), { item_id: dear.id, quantity: 1, max_price: null }])
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().data.amount).toBe(1_000 + 4 * 9_000)
  })

  it('an open denomination compares the line’s price (its provider_qty priced) with max_price', async () => {
    const r = await createReseller(app, { balance: 200_000 })
    // Never called: the purchase is refused before anything is sent.
    const dana = await createOpenDenomination(app, 'mp-dgf', 1_010, {
      min_qty: 10_000,
      max_qty: 1_000_000,
      step_qty: 1_000,
      price_unit: 1_000,
    })
    const note = JSON.stringify({ target: '081234567890', provider_qty: 50_000 })
    const refused = await buy(app, r, 'mp-open', [{ item_id: dana.id, quantity: 1, note, max_price: 50_499 }])
    expect(answer(refused)).toEqual([422, aboveMax('carts.0.max_price', dana.id, 50_500)])
    expect(await balanceOf(app, r)).toBe(200_000)
  })

  it('a reused ref_id answers REF_ID_ALREADY_EXIST whatever max_price says', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const item = await createItem(app, { order_process: 'manual', unlimited_stock: true, price: 5_000 })
    expect((await buy(app, r, 'mp-reused', [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
    const again = await buy(app, r, 'mp-reused', [{ item_id: item.id, quantity: 1, max_price: 1 }])
    expect([again.statusCode, again.json().message]).toEqual([422, 'REF_ID_ALREADY_EXIST'])
  })

  it('max_price out of range or not an integer is a VALIDATION_ERROR on its field', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const item = await createItem(app, { order_process: 'manual', unlimited_stock: true, price: 5_000 })
    for (const bad of [-1, 1e15 + 1, 1.5, 'ten', true]) {
      const res = await buy(app, r, 'mp-bad', [{ item_id: item.id, quantity: 1, max_price: bad as never }])
      expect([res.statusCode, res.json().message, Object.keys(res.json().errors)], String(bad)).toEqual([
        422,
        'VALIDATION_ERROR',
        ['carts.0.max_price'],
      ])
    }
  })
})

describe('max_price in the sandbox', () => {
  it('refuses a price above max_price with the same answer, stores nothing; equal passes', async () => {
    const r = await createReseller(app)
    const item = await createAutoItem(app, 3, { price: 7_500 })
    expect(answer(await sandbox(r, { ref_id: 'mps-1', item_id: item.id, quantity: 2, max_price: 7_499 }))).toEqual([
      422,
      aboveMax('max_price', item.id, 7_500),
    ])
    expect(await stored(r.id)).toEqual({ orders: 0, sandbox: 0 })
    const ok = await sandbox(r, { ref_id: 'mps-1', item_id: item.id, quantity: 2, max_price: 7_500 })
    expect([ok.statusCode, ok.json().data.status]).toEqual([200, 'sandbox'])
    // A reused sandbox ref_id still answers REF_ID_ALREADY_EXIST first.
    const again = await sandbox(r, { ref_id: 'mps-1', item_id: item.id, quantity: 2, max_price: 1 })
    expect([again.statusCode, again.json().message]).toEqual([422, 'REF_ID_ALREADY_EXIST'])
  })
})
