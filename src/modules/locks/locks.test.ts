import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createAutoItem, createItem, createReseller, get, type Reseller } from '../../../test/factory.js'
import { buy, stockOf } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'
import { sweepExpiredLocks } from './locks.service.js'

const { app, ctx } = await createTestApp()
// Locks are worth at most the balance (docs/design.md §6): enough for every lock these tests take.
const FUNDED = { balance: 1_000_000 }

const lock = (r: Reseller, payload: object) => app.inject({ method: 'POST', url: '/api/v1/item/lock', headers: r.headers, payload })
// Clients often send a JSON content type on every call: a body-less DELETE must still work.
const release = (r: Reseller, token: string) =>
  app.inject({ method: 'DELETE', url: `/api/v1/item/lock/${token}`, headers: { ...r.headers, 'content-type': 'application/json' } })
const outcome = (res: { statusCode: number; json(): any }) => [res.statusCode, res.json().message]
// Moves a lock's time past its end without waiting ten minutes.
const backdate = (token: string) =>
  sql`UPDATE stock_locks SET expires_at = clock_timestamp() - interval '1 second' WHERE token = ${token}`.execute(ctx.db)

describe('POST /v1/item/lock', () => {
  it('reserves stock: 201, the token, and the catalog shows the rest', async () => {
    const r = await createReseller(app, FUNDED)
    const item = await createAutoItem(app, 5)
    const res = await lock(r, { item_id: item.id, quantity: 2 })
    expect(res.statusCode).toBe(201)
    const body = res.json()
    expect(body.success).toBe(true)
    expect(body.data).toMatchObject({ item_id: item.id, quantity: 2 })
    expect(body.data.lock_token).toMatch(/^LCK-[0-9a-f]{32}$/)
    expect(Date.parse(body.data.expires_at) - Date.parse(body.data.locked_at)).toBe(600_000)
    expect(await stockOf(app, r, item.id)).toBe(3)
    const short = (await lock(r, { item_id: item.id, quantity: 1, lock_duration: 60 })).json().data
    expect(Date.parse(short.expires_at) - Date.parse(short.locked_at)).toBe(60_000)
  })

  it('answers each refusal in the order of docs/design.md §6', async () => {
    const r = await createReseller(app, FUNDED)
    await admin(app, 'PATCH', `/resellers/${r.id}`, { max_active_locks: 1 })
    const auto = await createAutoItem(app, 3, { min_order: 2 })
    const unlimited = await createItem(app, { order_process: 'manual', unlimited_stock: true, min_order: 5 })
    const inactive = await createAutoItem(app, 3, { active: false })
    for (const [payload, field] of [
      [{ item_id: auto.id, quantity: 2, lock_duration: 59 }, 'lock_duration'],
      [{ item_id: auto.id, quantity: 2, lock_duration: 601 }, 'lock_duration'],
      [{ item_id: auto.id }, 'quantity'],
    ] as const) {
      const res = await lock(r, payload)
      expect(outcome(res)).toEqual([422, 'VALIDATION_ERROR'])
      expect(Object.keys(res.json().errors)).toEqual([field])
    }
    expect(outcome(await lock(r, { item_id: 999_999, quantity: 1 }))).toEqual([404, 'ITEM_NOT_FOUND'])
    expect(outcome(await lock(r, { item_id: inactive.id, quantity: 1 }))).toEqual([404, 'ITEM_NOT_FOUND'])
    expect(outcome(await lock(r, { item_id: unlimited.id, quantity: 1 }))).toEqual([422, 'LOCK_NOT_REQUIRED'])
    expect(outcome(await lock(r, { item_id: auto.id, quantity: 1 }))).toEqual([422, 'MINIMUM_ORDER_NOT_MET'])
    expect(outcome(await lock(r, { item_id: auto.id, quantity: 4 }))).toEqual([422, 'INSUFFICIENT_STOCK'])
    expect((await lock(r, { item_id: auto.id, quantity: 2 })).statusCode).toBe(201)
    // at the cap, the cap answers before stock
    expect(outcome(await lock(r, { item_id: auto.id, quantity: 3 }))).toEqual([429, 'MAX_ACTIVE_LOCKS_REACHED'])
    expect(outcome(await lock(r, { item_id: auto.id, quantity: 1 }))).toEqual([422, 'MINIMUM_ORDER_NOT_MET'])
  })

  it('holds no stock that a purchase could not take: provider off, over max_order', async () => {
    const r = await createReseller(app, FUNDED)
    await admin(app, 'POST', '/providers', { code: 'lock-prov', kind: 'digiflazz', base_url: 'http://127.0.0.1:9/v1' })
    const item = await createAutoItem(app, 5, { provider: 'lock-prov', provider_code: 'x', max_order: 2 })
    const tooMany = await lock(r, { item_id: item.id, quantity: 3 })
    expect([...outcome(tooMany), tooMany.json().errors]).toEqual([
      422,
      'VALIDATION_ERROR',
      { quantity: ['must be at most 2 for this item'] },
    ])
    await admin(app, 'PATCH', '/providers/lock-prov', { active: false })
    expect(outcome(await lock(r, { item_id: item.id, quantity: 1 }))).toEqual([503, 'PRODUCT_TEMPORARILY_UNAVAILABLE'])
  })

  it('uses the default cap of 10 per account', async () => {
    const r = await createReseller(app, FUNDED)
    const item = await createAutoItem(app, 20)
    for (let i = 0; i < 10; i++) expect((await lock(r, { item_id: item.id, quantity: 1 })).statusCode).toBe(201)
    expect(outcome(await lock(r, { item_id: item.id, quantity: 1 }))).toEqual([429, 'MAX_ACTIVE_LOCKS_REACHED'])
    const other = await createReseller(app, FUNDED)
    expect((await lock(other, { item_id: item.id, quantity: 1 })).statusCode).toBe(201)
  })
})

describe('GET and DELETE /v1/item/lock', () => {
  it("lists the caller's active locks with remaining time and releases them", async () => {
    const r = await createReseller(app, FUNDED)
    const other = await createReseller(app, FUNDED)
    const item = await createItem(app, { order_process: 'manual', stock: 4 })
    const token = (await lock(r, { item_id: item.id, quantity: 3, lock_duration: 120 })).json().data.lock_token
    await lock(other, { item_id: item.id, quantity: 1 })
    const listed = (await get(app, '/item/lock', r)).json().data
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({ lock_token: token, item_id: item.id, quantity: 3, status: 'active' })
    expect(listed[0].remaining_seconds).toBeGreaterThan(110)
    expect(listed[0].remaining_seconds).toBeLessThanOrEqual(120)
    expect(await stockOf(app, r, item.id)).toBe(0)

    expect(outcome(await release(other, token))).toEqual([404, 'LOCK_NOT_FOUND'])
    expect(outcome(await release(r, 'LCK-unknown'))).toEqual([404, 'LOCK_NOT_FOUND'])
    const res = await release(r, token)
    expect(res.statusCode).toBe(200)
    expect(res.json().data).toMatchObject({ lock_token: token, status: 'released' })
    expect(Date.parse(res.json().data.released_at)).not.toBeNaN()
    expect(await stockOf(app, r, item.id)).toBe(3)
    expect(outcome(await release(r, token))).toEqual([422, 'LOCK_RELEASED'])
    expect((await get(app, '/item/lock', r)).json().data).toEqual([])
  })

  it('frees stock at expires_at whether or not the sweeper ran, and the sweeper marks it expired', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 2)
    const token = (await lock(r, { item_id: item.id, quantity: 2 })).json().data.lock_token
    expect(await stockOf(app, r, item.id)).toBe(0)
    await backdate(token)
    expect(await stockOf(app, r, item.id)).toBe(2)
    expect((await get(app, '/item/lock', r)).json().data).toEqual([])
    expect(outcome(await release(r, token))).toEqual([422, 'LOCK_EXPIRED'])
    expect(outcome(await buy(app, r, 'exp-1', [{ item_id: item.id, quantity: 2 }], { lock_token: token }))).toEqual([422, 'LOCK_EXPIRED'])
    expect(await sweepExpiredLocks(ctx.db)).toBeGreaterThanOrEqual(1)
    const row = await ctx.db.selectFrom('stock_locks').select('status').where('token', '=', token).executeTakeFirstOrThrow()
    expect(row.status).toBe('expired')
    expect(outcome(await release(r, token))).toEqual([422, 'LOCK_EXPIRED'])
    expect((await buy(app, r, 'exp-1', [{ item_id: item.id, quantity: 2 }])).statusCode).toBe(200)
  })
})

describe('POST /v1/trx with lock_token', () => {
  it('buys the locked stock even when the rest is sold out, and the lock turns used', async () => {
    const a = await createReseller(app, { balance: 100_000 })
    const b = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 5, { price: 1_000 })
    const extra = await createAutoItem(app, 5, { price: 500 })
    const token = (await lock(a, { item_id: item.id, quantity: 3 })).json().data.lock_token
    expect((await buy(app, b, 'b-1', [{ item_id: item.id, quantity: 2 }])).statusCode).toBe(200)
    expect(outcome(await buy(app, b, 'b-2', [{ item_id: item.id, quantity: 1 }]))).toEqual([422, 'OUT_OF_STOCK'])
    expect(outcome(await buy(app, a, 'a-0', [{ item_id: item.id, quantity: 1 }]))).toEqual([422, 'OUT_OF_STOCK'])
    const res = await buy(
      app,
      a,
      'a-1',
      [
        { item_id: item.id, quantity: 3 },
        { item_id: extra.id, quantity: 1 },
      ],
      { lock_token: token },
    )
    expect(res.statusCode).toBe(200)
    expect(res.json().data.amount).toBe(3_500)
    const row = await ctx.db.selectFrom('stock_locks').select(['status', 'order_id']).where('token', '=', token).executeTakeFirstOrThrow()
    expect(row).toEqual({ status: 'used', order_id: res.json().data.id })
    expect(await stockOf(app, a, item.id)).toBe(0)
    expect(outcome(await release(a, token))).toEqual([422, 'LOCK_ALREADY_USED'])
    expect(outcome(await buy(app, a, 'a-2', [{ item_id: item.id, quantity: 3 }], { lock_token: token }))).toEqual([
      422,
      'LOCK_ALREADY_USED',
    ])
  })

  it('refuses a mismatched, unknown or released lock, after the ref_id check and before item checks', async () => {
    const a = await createReseller(app, { balance: 100_000 })
    const b = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 10)
    const other = await createAutoItem(app, 10)
    const token = (await lock(a, { item_id: item.id, quantity: 2 })).json().data.lock_token
    const cases: [object[], string | undefined, Reseller, [number, string]][] = [
      [[{ item_id: item.id, quantity: 3 }], token, a, [422, 'LOCK_MISMATCH']],
      [[{ item_id: other.id, quantity: 2 }], token, a, [422, 'LOCK_MISMATCH']],
      [
        [
          { item_id: item.id, quantity: 2 },
          { item_id: item.id, quantity: 2 },
        ],
        token,
        a,
        [422, 'LOCK_MISMATCH'],
      ],
      [[{ item_id: item.id, quantity: 2 }], token, b, [404, 'LOCK_NOT_FOUND']],
      [[{ item_id: 999_999, quantity: 1 }], 'LCK-nope', a, [404, 'LOCK_NOT_FOUND']],
    ]
    for (const [carts, lockToken, who, expected] of cases)
      expect(outcome(await buy(app, who, 'lock-case', carts as never, { lock_token: lockToken }))).toEqual(expected)
    // A mismatch says what the lock holds.
    const mismatch = await buy(app, a, 'lock-case', [{ item_id: item.id, quantity: 3 }], { lock_token: token })
    expect(mismatch.json()).toEqual({
      message: 'LOCK_MISMATCH',
      errors: { carts: [`must have exactly one line with item_id ${item.id} and quantity 2, as the lock holds`] },
      data: { item_id: item.id, quantity: 2 },
    })
    expect((await buy(app, a, 'taken', [{ item_id: other.id, quantity: 1 }])).statusCode).toBe(200)
    expect(outcome(await buy(app, a, 'taken', [{ item_id: item.id, quantity: 3 }], { lock_token: 'LCK-nope' }))).toEqual([
      422,
      'REF_ID_ALREADY_EXIST',
    ])
    await release(a, token)
    expect(outcome(await buy(app, a, 'lock-case', [{ item_id: item.id, quantity: 2 }], { lock_token: token }))).toEqual([
      422,
      'LOCK_RELEASED',
    ])
    expect((await buy(app, a, 'lock-case', [{ item_id: item.id, quantity: 2 }])).statusCode).toBe(200)
    // null and "" mean no lock, as many clients send absent fields
    expect((await buy(app, a, 'null-lock', [{ item_id: item.id, quantity: 1 }], { lock_token: null })).statusCode).toBe(200)
    expect((await buy(app, a, 'empty-lock', [{ item_id: item.id, quantity: 1 }], { lock_token: '' })).statusCode).toBe(200)
  })

  it('tells the losers of a race for one lock that it was used', async () => {
    const a = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 3)
    const token = (await lock(a, { item_id: item.id, quantity: 3 })).json().data.lock_token
    const results = await Promise.all(
      [0, 1, 2, 3].map((n) => buy(app, a, `same-lock-${n}`, [{ item_id: item.id, quantity: 3 }], { lock_token: token })),
    )
    expect(results.map(outcome).sort()).toEqual([
      [200, 'OK'],
      [422, 'LOCK_ALREADY_USED'],
      [422, 'LOCK_ALREADY_USED'],
      [422, 'LOCK_ALREADY_USED'],
    ])
  })
})

describe('concurrency', () => {
  it('never reserves or sells more than the stock while lockers and buyers race', async () => {
    const resellers = await Promise.all(Array.from({ length: 8 }, () => createReseller(app, { balance: 1_000_000 })))
    const auto = await createAutoItem(app, 20, { price: 1_000 })
    const manual = await createItem(app, { order_process: 'manual', stock: 12, price: 1_000 })
    const race = await Promise.all(
      Array.from({ length: 80 }, (_, n) => {
        const r = resellers[n % resellers.length]
        const item = n % 3 === 0 ? manual.id : auto.id
        return n % 2 === 0
          ? lock(r, { item_id: item, quantity: 1 + (n % 3) }).then((res) => ({ r, res, kind: 'lock' as const }))
          : buy(app, r, `race-${n}`, [{ item_id: item, quantity: 1 + (n % 2) }]).then((res) => ({ r, res, kind: 'buy' as const }))
      }),
    )
    const unexpected = race
      .map(({ res }) => outcome(res))
      .filter(
        ([status, code]) =>
          !(
            status === 200 ||
            status === 201 ||
            code === 'INSUFFICIENT_STOCK' ||
            code === 'OUT_OF_STOCK' ||
            code === 'MAX_ACTIVE_LOCKS_REACHED'
          ),
      )
    expect(unexpected).toEqual([])
    for (const [item, total] of [
      [auto.id, 20],
      [manual.id, 12],
    ]) {
      const { rows } = await sql<{ reserved: number; sold: number }>`
        SELECT (SELECT coalesce(sum(quantity), 0)::bigint FROM stock_locks WHERE item_id = ${item} AND status = 'active') AS reserved,
               (SELECT coalesce(sum(quantity), 0)::bigint FROM order_lines WHERE item_id = ${item}) AS sold`.execute(ctx.db)
      expect(rows[0].reserved + rows[0].sold).toBeLessThanOrEqual(total)
    }
    // every lock granted is honoured: its holder can buy exactly that stock
    const granted = race.filter((x) => x.kind === 'lock' && x.res.statusCode === 201)
    for (const [i, { r, res }] of granted.entries()) {
      const data = res.json().data
      expect(
        (await buy(app, r, `with-lock-${i}`, [{ item_id: data.item_id, quantity: data.quantity }], { lock_token: data.lock_token }))
          .statusCode,
      ).toBe(200)
    }
    await assertInvariants(ctx.db, { [manual.id]: 12 })
  })

  it('holds the per-account cap under concurrent lock requests', async () => {
    const r = await createReseller(app, FUNDED)
    await admin(app, 'PATCH', `/resellers/${r.id}`, { max_active_locks: 3 })
    const item = await createAutoItem(app, 50)
    const results = await Promise.all(Array.from({ length: 12 }, () => lock(r, { item_id: item.id, quantity: 1 })))
    expect(results.filter((x) => x.statusCode === 201)).toHaveLength(3)
    expect(results.filter((x) => x.statusCode === 429).map((x) => x.json().message)).toEqual(Array(9).fill('MAX_ACTIVE_LOCKS_REACHED'))
  })
})
