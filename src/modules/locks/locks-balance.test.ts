import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createAutoItem, createItem, createReseller, type Reseller } from '../../../test/factory.js'
import { balanceOf, buy, stockOf } from '../../../test/factory-orders.js'

const { app, ctx } = await createTestApp()

const lock = (r: Reseller, payload: object) => app.inject({ method: 'POST', url: '/api/v1/item/lock', headers: r.headers, payload })
const release = (r: Reseller, token: string) => app.inject({ method: 'DELETE', url: `/api/v1/item/lock/${token}`, headers: r.headers })
const outcome = (res: { statusCode: number; json(): any }) => [res.statusCode, res.json().message]
const lockRows = async (r: Reseller) =>
  (await sql<{ n: number }>`SELECT count(*)::integer AS n FROM stock_locks WHERE account_id = ${r.id}`.execute(ctx.db)).rows[0].n

// docs/design.md §6: the account's active locks, the new one included, may be worth at most its balance.
describe('POST /v1/item/lock and the balance', () => {
  it('refuses an account with Rp 82 the whole stock of a Rp 45,000 item, and stores nothing', async () => {
    const r = await createReseller(app, { balance: 82 })
    const item = await createItem(app, { order_process: 'manual', stock: 19, price: 45_000 })
    // Stock is checked first (the order of docs/design.md §6).
    expect(outcome(await lock(r, { item_id: item.id, quantity: 20 }))).toEqual([422, 'INSUFFICIENT_STOCK'])
    const res = await lock(r, { item_id: item.id, quantity: 19 })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      message: 'BALANCE_IS_INSUFFICIENT',
      errors: { balance: ['is 82, less than 855000, the value of your active locks with this one: top up or release a lock'] },
      data: { balance: 82, required: 855_000 },
    })
    expect(await stockOf(app, r, item.id)).toBe(19)
    expect(await lockRows(r)).toBe(0)
    expect(await balanceOf(app, r)).toBe(82)
    // Another reseller can still lock and buy all of it.
    const buyer = await createReseller(app, { balance: 855_000 })
    const token = (await lock(buyer, { item_id: item.id, quantity: 19 })).json().data.lock_token
    expect((await buy(app, buyer, 'all-of-it', [{ item_id: item.id, quantity: 19 }], { lock_token: token })).statusCode).toBe(200)
  })

  it('counts the active locks already held: a second lock may not push their value over the balance', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const dear = await createAutoItem(app, 5, { price: 45_000 })
    const cheap = await createAutoItem(app, 5, { price: 10_000 })
    expect((await lock(r, { item_id: dear.id, quantity: 2 })).statusCode).toBe(201)
    const over = await lock(r, { item_id: cheap.id, quantity: 2 })
    expect(outcome(over)).toEqual([400, 'BALANCE_IS_INSUFFICIENT'])
    expect(over.json().data).toEqual({ balance: 100_000, required: 110_000 })
    expect(await stockOf(app, r, cheap.id)).toBe(5)
    // Exactly the balance is allowed: checked, not reserved.
    expect((await lock(r, { item_id: cheap.id, quantity: 1 })).statusCode).toBe(201)
    expect(outcome(await lock(r, { item_id: cheap.id, quantity: 1 }))).toEqual([400, 'BALANCE_IS_INSUFFICIENT'])
    expect(await lockRows(r)).toBe(2)
  })

  it('values the locks at the current price', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    const item = await createAutoItem(app, 5, { price: 10_000 })
    expect((await lock(r, { item_id: item.id, quantity: 2 })).statusCode).toBe(201)
    await admin(app, 'PATCH', `/items/${item.id}`, { price: 20_000 })
    expect((await lock(r, { item_id: item.id, quantity: 1 })).json().data).toEqual({ balance: 50_000, required: 60_000 })
  })

  it('no longer counts released, expired or used locks', async () => {
    const r = await createReseller(app, { balance: 90_000 })
    const item = await createAutoItem(app, 10, { price: 45_000 })
    const first = (await lock(r, { item_id: item.id, quantity: 2 })).json().data.lock_token
    expect(outcome(await lock(r, { item_id: item.id, quantity: 1 }))).toEqual([400, 'BALANCE_IS_INSUFFICIENT'])

    expect((await release(r, first)).statusCode).toBe(200)
    const second = (await lock(r, { item_id: item.id, quantity: 2 })).json().data.lock_token
    expect(second).toBeDefined()
    expect(outcome(await lock(r, { item_id: item.id, quantity: 1 }))).toEqual([400, 'BALANCE_IS_INSUFFICIENT'])

    // Past expires_at, swept or not, a lock holds nothing.
    await sql`UPDATE stock_locks SET expires_at = clock_timestamp() - interval '1 second' WHERE token = ${second}`.execute(ctx.db)
    const third = (await lock(r, { item_id: item.id, quantity: 1 })).json().data.lock_token
    expect(third).toBeDefined()

    // A used lock was paid for: only the balance left counts.
    expect((await buy(app, r, 'with-third', [{ item_id: item.id, quantity: 1 }], { lock_token: third })).statusCode).toBe(200)
    expect(await balanceOf(app, r)).toBe(45_000)
    expect((await lock(r, { item_id: item.id, quantity: 1 })).statusCode).toBe(201)
    expect((await lock(r, { item_id: item.id, quantity: 1 })).json().data).toEqual({ balance: 45_000, required: 90_000 })
  })

  it('holds the rule under concurrent lock requests of one account', async () => {
    const r = await createReseller(app, { balance: 30_000 })
    const item = await createAutoItem(app, 20, { price: 10_000 })
    const results = await Promise.all(Array.from({ length: 8 }, () => lock(r, { item_id: item.id, quantity: 1 })))
    expect(results.filter((x) => x.statusCode === 201)).toHaveLength(3)
    expect(results.filter((x) => x.statusCode === 400).map((x) => x.json().message)).toEqual(Array(5).fill('BALANCE_IS_INSUFFICIENT'))
  })
})
