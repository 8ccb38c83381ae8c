import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { createAutoItem, createItem, createOpenDenomination, createReseller, get } from '../../../test/factory.js'
import { balanceOf, buy } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'

const { app, ctx } = await createTestApp()

const MONEY_MAX = 1_000_000_000_000_000
const sandbox = (r: { headers: Record<string, string> }, payload: object) =>
  app.inject({ method: 'POST', url: '/api/v1/order/sandbox', headers: r.headers, payload })
const refusal = (res: { statusCode: number; json(): any }) => [res.statusCode, res.json()]
const stored = async (accountId: number) => {
  const { rows } = await sql<{ orders: number; refs: number; sandbox: number }>`
    SELECT (SELECT count(*) FROM orders WHERE account_id = ${accountId}) AS orders,
           (SELECT count(*) FROM ref_ids WHERE account_id = ${accountId}) AS refs,
           (SELECT count(*) FROM sandbox_orders WHERE account_id = ${accountId}) AS sandbox`.execute(ctx.db)
  return rows[0]
}

describe('money stays within 10^15, exact', () => {
  it('refuses a line or an order over 10^15 with 422 before anything is stored, in the purchase and the sandbox', async () => {
    const r = await createReseller(app, { balance: 1_000 })
    const dear = await createItem(app, { order_process: 'manual', unlimited_stock: true, price: 999_999_999_999 })
    const top = await createItem(app, { order_process: 'manual', unlimited_stock: true, price: 1_000_000_000_000 })

    expect(refusal(await sandbox(r, { ref_id: 'huge', item_id: dear.id, quantity: 999_999 }))).toEqual([
      422,
      { message: 'VALIDATION_ERROR', errors: { quantity: [`the line would cost more than ${MONEY_MAX}`] } },
    ])
    expect(
      refusal(
        await buy(app, r, 'huge', [
          { item_id: top.id, quantity: 1, note: 'a' },
          { item_id: dear.id, quantity: 999_999, note: 'b' },
        ]),
      ),
    ).toEqual([422, { message: 'VALIDATION_ERROR', errors: { 'carts.1.quantity': [`the line would cost more than ${MONEY_MAX}`] } }])
    expect(refusal(await buy(app, r, 'huge', [{ item_id: top.id, quantity: 1001, note: 'a' }]))).toEqual([
      422,
      { message: 'VALIDATION_ERROR', errors: { 'carts.0.quantity': [`the line would cost more than ${MONEY_MAX}`] } },
    ])
    expect(
      refusal(
        await buy(app, r, 'huge', [
          { item_id: top.id, quantity: 600, note: 'a' },
          { item_id: top.id, quantity: 600, note: 'b' },
        ]),
      ),
    ).toEqual([422, { message: 'VALIDATION_ERROR', errors: { carts: [`the order would cost more than ${MONEY_MAX}`] } }])
    expect(await stored(r.id)).toEqual({ orders: 0, refs: 0, sandbox: 0 })
    // The ref was left free, and reading it answers a clean 404.
    expect((await get(app, '/trx/huge', r)).json()).toEqual({ message: 'TRX_NOT_FOUND' })
  })

  it('bounds an open denomination’s line by its size in one place (check_cart_line): the purchase and the sandbox alike', async () => {
    const r = await createReseller(app, { balance: 1_000 })
    // Never called: the line is refused, or only a sandbox order stored, before anything is sent.
    const open = await createOpenDenomination(app, 'pl-dgf', 1_000_000_001, { min_qty: 1, max_qty: 1_000_000, price_unit: 1 })
    const note = (qty: number) => JSON.stringify({ target: '081234567890', provider_qty: qty })
    const over = { message: 'VALIDATION_ERROR', errors: { note: [`the line would cost more than ${MONEY_MAX}`] } }
    expect(refusal(await sandbox(r, { ref_id: 'open-huge', item_id: open.id, quantity: 1, note: note(1_000_000) }))).toEqual([422, over])
    expect(refusal(await buy(app, r, 'open-huge', [{ item_id: open.id, quantity: 1, note: note(1_000_000) }]))).toEqual([
      422,
      { ...over, errors: { 'carts.0.note': over.errors.note } },
    ])
    // In the purchase's order of checks: the line's cost before its max_price.
    const capped = { ref_id: 'open-capped', item_id: open.id, quantity: 1, note: note(1_000_000), max_price: 1 }
    expect(refusal(await sandbox(r, capped))).toEqual([422, over])
    expect(refusal(await buy(app, r, 'open-capped', [{ item_id: open.id, quantity: 1, note: note(1_000_000), max_price: 1 }]))).toEqual([
      422,
      { ...over, errors: { 'carts.0.note': over.errors.note } },
    ])
    expect(await stored(r.id)).toEqual({ orders: 0, refs: 0, sandbox: 0 })
    // One unit less is within the bound: the sandbox stores it (a purchase would then want the balance).
    const within = await sandbox(r, { ref_id: 'open-within', item_id: open.id, quantity: 1, note: note(999_999) })
    expect(within.statusCode).toBe(200)
    expect((await get(app, '/trx/open-within', r)).json().data).toMatchObject({ status: 'sandbox', amount: 999_999_000_999_999 })
  })

  it('takes an order of exactly 10^15 and reads it back exactly', async () => {
    const r = await createReseller(app, { balance: MONEY_MAX })
    const item = await createItem(app, { order_process: 'manual', unlimited_stock: true, price: 1_000_000_000_000 })
    const sb = await sandbox(r, { ref_id: 'max', item_id: item.id, quantity: 1000 })
    expect(sb.statusCode).toBe(200)
    expect((await get(app, '/trx/max', r)).json().data).toMatchObject({ status: 'sandbox', amount: MONEY_MAX, price: MONEY_MAX })
    const res = await buy(app, r, 'max', [
      { item_id: item.id, quantity: 400, note: 'x' },
      { item_id: item.id, quantity: 600, note: 'y' },
    ])
    expect(res.statusCode).toBe(200)
    expect(res.json().data.amount).toBe(MONEY_MAX)
    const read = await get(app, '/trx/max', r)
    expect(read.statusCode).toBe(200)
    expect(read.json().data).toMatchObject({
      amount: MONEY_MAX,
      items: [{ subtotal: 400_000_000_000_000 }, { subtotal: 600_000_000_000_000 }],
    })
    expect(await balanceOf(app, r)).toBe(0)
    await assertInvariants(ctx.db)
  })
})

describe('max_order and ref_id', () => {
  it('counts max_order over every line of the item, not per line', async () => {
    const r = await createReseller(app, { balance: 1_000_000 })
    const item = await createAutoItem(app, 10, { price: 1_000, max_order: 3 })
    const other = await createAutoItem(app, 10, { price: 1_000 })
    expect(
      refusal(
        await buy(app, r, 'split', [
          { item_id: item.id, quantity: 2 },
          { item_id: other.id, quantity: 5 },
          { item_id: item.id, quantity: 2 },
        ]),
      ),
    ).toEqual([
      422,
      { message: 'VALIDATION_ERROR', errors: { 'carts.2.quantity': ['must be at most 3 for this item over all lines of it'] } },
    ])
    expect(refusal(await buy(app, r, 'split', [{ item_id: item.id, quantity: 4 }]))).toEqual([
      422,
      { message: 'VALIDATION_ERROR', errors: { 'carts.0.quantity': ['must be at most 3 for this item'] } },
    ])
    expect(await stored(r.id)).toMatchObject({ orders: 0, refs: 0 })
    const ok = await buy(app, r, 'split', [
      { item_id: item.id, quantity: 1 },
      { item_id: other.id, quantity: 5 },
      { item_id: item.id, quantity: 2 },
    ])
    expect(ok.statusCode).toBe(200)
    expect(ok.json().data.amount).toBe(8_000)
  })

  it('refuses a ref_id of only white space, on a purchase and a sandbox order', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 5, { price: 1_000 })
    const blank = { message: 'VALIDATION_ERROR', errors: { ref_id: ['must not be blank'] } }
    for (const ref of [' ', '   ', '\t \n', '\u00a0\u2003']) {
      expect(refusal(await buy(app, r, ref, [{ item_id: item.id, quantity: 1 }]))).toEqual([422, blank])
      expect(refusal(await sandbox(r, { ref_id: ref, item_id: item.id, quantity: 1 }))).toEqual([422, blank])
    }
    expect(await stored(r.id)).toEqual({ orders: 0, refs: 0, sandbox: 0 })
    // Spaces around a real ref are part of it, as before.
    expect((await buy(app, r, ' a ', [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
  })
})

describe('notes', () => {
  it('stores the note it checked: trimmed, and none when blank', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const manual = await createItem(app, { order_process: 'manual', stock: 5, price: 1_000 })
    // 50 characters once trimmed: accepted, and stored as those 50.
    const target = 'u'.repeat(50)
    const res = await buy(app, r, 'noted', [
      { item_id: manual.id, quantity: 1, note: `   ${target}  ` },
      { item_id: manual.id, quantity: 1, note: '   ' },
    ])
    expect(res.statusCode).toBe(200)
    const items = (await get(app, '/trx/noted', r)).json().data.items
    expect(items.map((i: any) => i.note)).toEqual([target, null])
    const { rows } = await sql<{
      note: string | null
    }>`SELECT note FROM order_lines WHERE order_id = ${res.json().data.id} ORDER BY position`.execute(ctx.db)
    expect(rows.map((l) => l.note)).toEqual([target, null])
  })
})
