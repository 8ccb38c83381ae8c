import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createAutoItem, createItem, createReseller, get } from '../../../test/factory.js'
import { balanceOf, buy, stockOf } from '../../../test/factory-orders.js'
import { ORDER_DOCS } from './orders.openapi.js'

const { app, ctx } = await createTestApp()

describe('POST /v1/trx', () => {
  it('buys an auto item: paid at once, completed on retrieval with its licenses, balance debited', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 3, { price: 12_500 })
    const res = await buy(app, r, 'order:1', [{ item_id: item.id, quantity: 2 }])
    expect(res.statusCode).toBe(200)
    const created = res.json().data
    // The public docs' create response: price and fees beside the amount, contact the account's email (none here).
    expect(created).toMatchObject({ ref_id: 'order:1', price: 25_000, fees: 0, amount: 25_000, contact: null, status: 'paid' })
    expect(created.invoice).toMatch(/^INV\d{8}[A-Z0-9]{8}$/)
    expect(Object.keys(created).sort()).toEqual(['amount', 'contact', 'created_at', 'fees', 'id', 'invoice', 'price', 'ref_id', 'status'])
    expect(await balanceOf(app, r)).toBe(75_000)
    expect(await stockOf(app, r, item.id)).toBe(1)

    for (const ref of ['order:1', created.invoice, encodeURIComponent('order:1')]) {
      const got = await get(app, `/trx/${ref}`, r)
      expect(got.statusCode).toBe(200)
      const body = got.json()
      expect(body.data).toMatchObject({
        id: created.id,
        status: 'completed',
        payment_method: 'saldo',
        price: 25_000,
        fees: 0,
        amount: 25_000,
      })
      expect(body.h2h_results).toEqual([])
      expect(body.smm_results).toEqual([])
      const [line] = body.data.items
      expect(line).toMatchObject({
        variant_id: item.id,
        quantity: 2,
        price: 12_500,
        subtotal: 25_000,
        order_process: 'auto',
        status: 'completed',
      })
      expect(line.licenses).toHaveLength(2)
      expect(line.product_license).toBe(line.licenses.map((l: any) => l.product_license).join('\n'))
    }
    // Born completed: one outbox row announces both events.
    const events = await ctx.db.selectFrom('outbox_events').select('events').where('order_id', '=', created.id).execute()
    expect(events.map((e) => e.events)).toEqual([['order.paid', 'order.completed']])
  })

  it('answers a reused ref_id with the existing transaction, even when the balance is now empty', async () => {
    const r = await createReseller(app, { balance: 10_000 })
    const item = await createAutoItem(app, 5, { price: 10_000 })
    const first = (await buy(app, r, 'same', [{ item_id: item.id, quantity: 1 }])).json().data
    const again = await buy(app, r, 'same', [{ item_id: item.id, quantity: 1 }])
    expect(again.statusCode).toBe(422)
    const { price: _p, fees: _f, contact: _c, ...summary } = first
    expect(again.json()).toEqual({
      message: 'REF_ID_ALREADY_EXIST',
      errors: { ref_id: ['The ref id has already been used.'] },
      data: { ...summary, status: 'completed' },
    })
    // another account may use the same ref_id
    const other = await createReseller(app, { balance: 10_000 })
    expect((await buy(app, other, 'same', [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
  })

  it('refuses with each error code and stores nothing, leaving the ref_id free', async () => {
    const r = await createReseller(app, { balance: 30_000 })
    const auto = await createAutoItem(app, 2, { price: 10_000, min_order: 1 })
    const bulk = await createAutoItem(app, 5, { price: 1_000, min_order: 3 })
    const inactive = await createAutoItem(app, 1, { active: false })
    await admin(app, 'POST', '/providers', { code: 'h2h-on', kind: 'digiflazz', base_url: 'http://127.0.0.1:9/v1' })
    const h2h = await createItem(app, { order_process: 'h2h', unlimited_stock: true, provider: 'h2h-on', provider_code: 'x' })
    const smm = await createItem(app, { order_process: 'smm', unlimited_stock: true, provider: 'h2h-on', provider_code: '1' })
    const cases: [string, object[], number, string, Record<string, string[]>?][] = [
      ['missing item', [{ item_id: 999_999, quantity: 1 }], 404, 'ITEM_NOT_FOUND'],
      [
        'inactive item on the second line',
        [
          { item_id: auto.id, quantity: 1 },
          { item_id: inactive.id, quantity: 1 },
        ],
        404,
        'ITEM_NOT_FOUND',
        { 'carts.1.item_id': ['no active item has this id: see GET /api/v1/item'] },
      ],
      [
        'below minimum',
        [{ item_id: bulk.id, quantity: 2 }],
        422,
        'MINIMUM_ORDER_NOT_MET',
        { 'carts.0.quantity': ['must be at least 3 (the minimum order)'] },
      ],
      [
        'h2h without note',
        [{ item_id: h2h.id, quantity: 1 }],
        422,
        'REQUIRED_FIELD_MISSING',
        // The OpenAPI example shows this very refusal.
        (ORDER_DOCS.createPurchase.errorExamples?.REQUIRED_FIELD_MISSING as { errors: Record<string, string[]> }).errors,
      ],
      [
        'smm item mapped to an h2h provider',
        [{ item_id: smm.id, quantity: 1, note: 'https://x.example/p' }],
        503,
        'PRODUCT_TEMPORARILY_UNAVAILABLE',
      ],
      [
        'h2h line over the requests one line may make',
        [{ item_id: h2h.id, quantity: 101, note: '0812' }],
        422,
        'VALIDATION_ERROR',
        { 'carts.0.quantity': ['must be at most 100 for an h2h item (one provider request each)'] },
      ],
      ['smm note not JSON', [{ item_id: smm.id, quantity: 1, note: '{target' }], 400, 'SMM_ORDER_REQUIRES_JSON_NOTE'],
      ['smm JSON without target', [{ item_id: smm.id, quantity: 1, note: '{"opt_smm":"x"}' }], 400, 'SMM_ORDER_REQUIRES_JSON_NOTE'],
      [
        'plain note over 50',
        [{ item_id: auto.id, quantity: 1, note: 'x'.repeat(51) }],
        422,
        'VALIDATION_ERROR',
        { 'carts.0.note': ['must be at most 50 characters'] },
      ],
      ['more than stock', [{ item_id: auto.id, quantity: 3 }], 422, 'OUT_OF_STOCK', { 'carts.0.quantity': ['only 2 available'] }],
      [
        'over two lines of one item',
        [
          { item_id: auto.id, quantity: 1 },
          { item_id: auto.id, quantity: 2 },
        ],
        422,
        'OUT_OF_STOCK',
        { 'carts.1.quantity': ['only 2 available'] },
      ],
      [
        'a zero quantity on any line',
        [
          { item_id: auto.id, quantity: 2 },
          { item_id: auto.id, quantity: 0 },
        ],
        422,
        'VALIDATION_ERROR',
        { 'carts.1.quantity': ['must be ≥ 1'] },
      ],
    ]
    for (const [label, carts, status, code, fieldErrors] of cases) {
      const res = await buy(app, r, 'free-ref', carts as never)
      expect([label, res.statusCode, res.json().message]).toEqual([label, status, code])
      if (fieldErrors) expect(res.json().errors, label).toEqual(fieldErrors)
      if (code === 'OUT_OF_STOCK') expect(res.json().data).toEqual({ item_id: auto.id, available: 2 })
    }
    await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: -15_000, reason: 'test' })
    const poor = await buy(app, r, 'free-ref', [{ item_id: auto.id, quantity: 2 }])
    expect([poor.statusCode, poor.json()]).toEqual([
      400,
      {
        message: 'BALANCE_IS_INSUFFICIENT',
        errors: { balance: ['is 15000, less than 20000, the cost of this order: top up at least 5000'] },
        data: { balance: 15_000, required: 20_000 },
      },
    ])
    expect(await balanceOf(app, r)).toBe(15_000)
    expect(await stockOf(app, r, auto.id)).toBe(2)
    const ok = await buy(app, r, 'free-ref', [{ item_id: auto.id, quantity: 1 }])
    expect(ok.statusCode).toBe(200)
    expect(await balanceOf(app, r)).toBe(5_000)
  })

  it('answers values PostgreSQL cannot store with 422, never 500', async () => {
    const r = await createReseller(app, { balance: 1000 })
    const item = await createAutoItem(app, 1)
    const res = await buy(app, r, 'nul\u0000ref', [{ item_id: item.id, quantity: 1 }])
    expect([res.statusCode, res.json().message]).toEqual([422, 'VALIDATION_ERROR'])
    expect((await get(app, '/trx?page=1e300', r)).statusCode).toBe(422)
    expect((await get(app, `/trx/${'x'.repeat(300)}`, r)).json()).toEqual({ message: 'TRX_NOT_FOUND' })
  })

  it('answers 503 for an item whose provider the operator switched off, debiting nothing', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    await admin(app, 'POST', '/providers', { code: 'switchable', kind: 'digiflazz', base_url: 'http://127.0.0.1:9/v1' })
    const item = await createAutoItem(app, 3, { price: 5_000, provider: 'switchable', provider_code: 'v1' })
    await admin(app, 'PATCH', '/providers/switchable', { active: false })
    expect([(await buy(app, r, 'off-1', [{ item_id: item.id, quantity: 1 }])).statusCode, await balanceOf(app, r)]).toEqual([503, 50_000])
    const sandbox = await app.inject({
      method: 'POST',
      url: '/api/v1/order/sandbox',
      headers: r.headers,
      payload: { ref_id: 'off-1', item_id: item.id, quantity: 1 },
    })
    expect([sandbox.statusCode, sandbox.json().message]).toEqual([503, 'PRODUCT_TEMPORARILY_UNAVAILABLE'])
    await admin(app, 'PATCH', '/providers/switchable', { active: true })
    expect((await buy(app, r, 'off-1', [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
  })

  it('validates the body: ref_id length, carts bounds, quantities', async () => {
    const r = await createReseller(app, { balance: 1000 })
    const cases: [object, string][] = [
      [{ ref_id: 'a', carts: [{ item_id: 1e20, quantity: 1 }] }, 'carts.0.item_id'],
      [{ ref_id: 'x'.repeat(192), carts: [{ item_id: 1, quantity: 1 }] }, 'ref_id'],
      [{ ref_id: '', carts: [{ item_id: 1, quantity: 1 }] }, 'ref_id'],
      [{ ref_id: 'a', carts: [] }, 'carts'],
      [{ ref_id: 'a', carts: Array.from({ length: 51 }, () => ({ item_id: 1, quantity: 1 })) }, 'carts'],
      [{ ref_id: 'a', carts: [{ item_id: 1, quantity: 0 }] }, 'carts.0.quantity'],
      [{ ref_id: 'a', carts: [{ item_id: 1, quantity: 1.5 }] }, 'carts.0.quantity'],
      [{ ref_id: 'a', carts: [{ item_id: 1, quantity: 1_000_001 }] }, 'carts.0.quantity'],
      [{ ref_id: 'a', carts: [{ item_id: 1 }] }, 'carts.0.quantity'],
      [{ carts: [{ item_id: 1, quantity: 1 }] }, 'ref_id'],
    ]
    for (const [payload, field] of cases) {
      const res = await app.inject({ method: 'POST', url: '/api/v1/trx', headers: r.headers, payload })
      expect(res.statusCode).toBe(422)
      expect(res.json().message).toBe('VALIDATION_ERROR')
      expect(Object.keys(res.json().errors)).toContain(field)
    }
  })
})
