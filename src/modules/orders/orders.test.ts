import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createAutoItem, createItem, createReseller, get } from '../../../test/factory.js'
import { balanceOf, buy, stockOf } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'

const { app, ctx } = await createTestApp()

describe('POST /v1/trx', () => {
  it('buys an auto item: paid at once, completed on retrieval with its licenses, balance debited', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 3, { price: 12_500 })
    const res = await buy(app, r, 'order:1', [{ item_id: item.id, quantity: 2 }])
    expect(res.statusCode).toBe(200)
    const created = res.json().data
    expect(created).toMatchObject({ ref_id: 'order:1', amount: 25_000, status: 'paid' })
    expect(created.invoice).toMatch(/^INV\d{8}[A-Z0-9]{8}$/)
    expect(Object.keys(created).sort()).toEqual(['amount', 'created_at', 'id', 'invoice', 'ref_id', 'status'])
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
        status: 'delivered',
      })
      expect(line.licenses).toHaveLength(2)
      expect(line.product_license).toBe(line.licenses.map((l: any) => l.product_license).join('\n'))
    }
    const events = await ctx.db.selectFrom('outbox_events').select('event').where('order_id', '=', created.id).orderBy('id').execute()
    expect(events.map((e) => e.event)).toEqual(['order.paid', 'order.completed'])
  })

  it('answers a reused ref_id with the existing transaction, even when the balance is now empty', async () => {
    const r = await createReseller(app, { balance: 10_000 })
    const item = await createAutoItem(app, 5, { price: 10_000 })
    const first = (await buy(app, r, 'same', [{ item_id: item.id, quantity: 1 }])).json().data
    const again = await buy(app, r, 'same', [{ item_id: item.id, quantity: 1 }])
    expect(again.statusCode).toBe(422)
    expect(again.json()).toEqual({ message: 'REF_ID_ALREADY_EXIST', data: { ...first, status: 'completed' } })
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
      ['inactive item', [{ item_id: inactive.id, quantity: 1 }], 404, 'ITEM_NOT_FOUND'],
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
        { 'carts.0.note': ['the target number, account or link is required'] },
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
      ['more than stock', [{ item_id: auto.id, quantity: 3 }], 422, 'INSUFFICIENT_STOCK'],
      [
        'over two lines of one item',
        [
          { item_id: auto.id, quantity: 1 },
          { item_id: auto.id, quantity: 2 },
        ],
        422,
        'INSUFFICIENT_STOCK',
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
      if (fieldErrors) expect(res.json().errors).toEqual(fieldErrors)
    }
    await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: -15_000, reason: 'test' })
    const poor = await buy(app, r, 'free-ref', [{ item_id: auto.id, quantity: 2 }])
    expect([poor.statusCode, poor.json().message]).toEqual([400, 'BALANCE_IS_INSUFFICIENT'])
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
    const events = await ctx.db
      .selectFrom('outbox_events')
      .select(['event', 'order_line_id'])
      .where('order_id', '=', created.id)
      .orderBy('id')
      .execute()
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
    expect(view.items.map((i: any) => i.status)).toEqual(['refunded', 'delivered'])
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
    const events = await ctx.db.selectFrom('outbox_events').select('event').where('order_id', '=', created.id).orderBy('id').execute()
    expect(events.map((e) => e.event)).toEqual(['order.paid', 'order.canceled'])
  })
})

describe('GET /v1/trx and sandbox', () => {
  it('lists own purchases newest first with status filter and paging; another account sees none', async () => {
    const r = await createReseller(app, { balance: 1_000_000 })
    const auto = await createAutoItem(app, 5, { price: 1_000 })
    const manual = await createItem(app, { order_process: 'manual', unlimited_stock: true, price: 1_000 })
    for (let i = 0; i < 3; i++) await buy(app, r, `l-${i}`, [{ item_id: auto.id, quantity: 1 }])
    await buy(app, r, 'l-m', [{ item_id: manual.id, quantity: 1 }])
    const all = (await get(app, '/trx?per_page=2', r)).json()
    expect(all.data.map((o: any) => o.ref_id)).toEqual(['l-m', 'l-2'])
    expect(all.meta).toEqual({ page: 1, per_page: 2, total: 4, last_page: 2, total_capped: false, next_cursor: expect.any(String) })
    const next = (await get(app, `/trx?per_page=2&cursor=${all.meta.next_cursor}`, r)).json()
    expect([next.data.map((o: any) => o.ref_id), next.meta.page, next.meta.next_cursor]).toEqual([['l-1', 'l-0'], 2, null])
    expect((await get(app, '/trx?status=paid', r)).json().data.map((o: any) => o.ref_id)).toEqual(['l-m'])
    expect((await get(app, '/trx?status=pending', r)).json().data).toEqual([])
    expect((await get(app, '/trx?status=bogus', r)).statusCode).toBe(422)
    expect((await get(app, '/trx?per_page=51', r)).statusCode).toBe(422)
    const operatorView = await app.inject({
      method: 'GET',
      url: `/api/admin/v1/transactions?account_id=${r.id}&status=paid`,
      headers: { authorization: 'Bearer test-admin-token-0123456789' },
    })
    expect(operatorView.json().data.map((o: any) => [o.ref_id, o.account_id])).toEqual([['l-m', r.id]])
    expect(operatorView.json().meta.total).toBe(1)
    const stranger = await createReseller(app)
    expect((await get(app, '/trx', stranger)).json().data).toEqual([])
    const hidden = await get(app, '/trx/l-0', stranger)
    expect([hidden.statusCode, hidden.json()]).toEqual([404, { message: 'TRX_NOT_FOUND' }])
  })

  it('sandbox runs the checks, charges and reserves nothing, and its ref works for a real order later', async () => {
    const r = await createReseller(app, { balance: 10_000 })
    const auto = await createAutoItem(app, 1, { price: 10_000, min_order: 1 })
    const sandbox = (path: string, payload: object) => app.inject({ method: 'POST', url: `/api/v1${path}`, headers: r.headers, payload })
    const res = await sandbox('/order/sandbox', { ref_id: 'go-live', item_id: auto.id, quantity: 1 })
    expect(res.statusCode).toBe(200)
    expect(res.json().data).toMatchObject({ ref_id: 'go-live', status: 'sandbox' })
    expect(res.json().data.invoice).toMatch(/^SBX/)
    expect((await sandbox('/order/sandbox', { ref_id: 'go-live', item_id: auto.id, quantity: 1 })).json().message).toBe(
      'REF_ID_ALREADY_EXIST',
    )
    expect((await sandbox('/order/sandbox', { ref_id: 'sb-2', item_id: auto.id, quantity: 2 })).json().message).toBe('INSUFFICIENT_STOCK')
    expect((await sandbox('/order/sandbox', { ref_id: 'sb-3', item_id: 999_999, quantity: 1 })).json().message).toBe('ITEM_NOT_FOUND')
    const unlimited = await createItem(app, { order_process: 'manual', unlimited_stock: true })
    expect((await sandbox('/order/sandbox', { ref_id: 'sb-4', item_id: unlimited.id, quantity: 1000 })).statusCode).toBe(200)
    await admin(app, 'POST', '/providers', { code: 'sb-h2h', kind: 'digiflazz', base_url: 'http://127.0.0.1:9/v1' })
    const h2h = await createItem(app, { order_process: 'h2h', unlimited_stock: true, provider: 'sb-h2h', provider_code: 'x' })
    expect((await sandbox('/order/sandbox', { ref_id: 'sb-5', item_id: h2h.id, quantity: 1 })).statusCode).toBe(200)
    // like a real purchase: a switched-off provider's item is not sold
    await admin(app, 'PATCH', '/providers/sb-h2h', { active: false })
    expect((await sandbox('/order/sandbox', { ref_id: 'sb-6', item_id: h2h.id, quantity: 1 })).json().message).toBe(
      'PRODUCT_TEMPORARILY_UNAVAILABLE',
    )
    expect(await balanceOf(app, r)).toBe(10_000)
    expect(await stockOf(app, r, auto.id)).toBe(1)
    expect((await get(app, '/trx/go-live', r)).json().data.status).toBe('sandbox')
    expect((await get(app, '/trx', r)).json().data).toEqual([])
    const real = await buy(app, r, 'go-live', [{ item_id: auto.id, quantity: 1 }])
    expect(real.statusCode).toBe(200)
    expect((await get(app, '/trx/go-live', r)).json().data.status).toBe('completed')
  })
})

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
      outcomes.filter((o) => !['200 OK', '400 BALANCE_IS_INSUFFICIENT', '422 INSUFFICIENT_STOCK', '422 REF_ID_ALREADY_EXIST'].includes(o)),
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
