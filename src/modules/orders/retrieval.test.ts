import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createAutoItem, createItem, createReseller, get } from '../../../test/factory.js'
import { balanceOf, buy, stockOf } from '../../../test/factory-orders.js'
import type { PreparedStatement } from '../../db/database.js'
import { accountCountersReader } from '../accounts/index.js'
import { detailByRefReader } from './order-detail.view.js'

const { app, ctx } = await createTestApp()

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
    // Above the maximum is taken as the maximum (the public docs' "max"); no number is still refused.
    expect((await get(app, '/trx?per_page=51', r)).json().meta.per_page).toBe(50)
    expect((await get(app, '/trx?per_page=5x', r)).statusCode).toBe(422)
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

  it('keeps the unfiltered totals exact: a free order, a refused one, every ledger entry', async () => {
    const r = await createReseller(app, { balance: 1_500 })
    const free = await createItem(app, { order_process: 'manual', unlimited_stock: true, price: 0 })
    const paid = await createAutoItem(app, 2, { price: 1_000 })
    expect((await buy(app, r, 'c-free', [{ item_id: free.id, quantity: 1 }])).statusCode).toBe(200)
    expect((await buy(app, r, 'c-paid', [{ item_id: paid.id, quantity: 1 }])).statusCode).toBe(200)
    expect((await buy(app, r, 'c-poor', [{ item_id: paid.id, quantity: 1 }])).json().message).toBe('BALANCE_IS_INSUFFICIENT')
    const { rows } = await sql<{ orders: number; entries: number; kept: string }>`
      SELECT (SELECT count(*)::int FROM orders WHERE account_id = ${r.id}) AS orders,
             (SELECT count(*)::int FROM ledger_entries WHERE account_id = ${r.id}) AS entries,
             (SELECT orders_count || '/' || ledger_count FROM accounts WHERE id = ${r.id}) AS kept`.execute(ctx.db)
    expect(rows[0]).toEqual({ orders: 2, entries: 2, kept: '2/2' })
    expect((await get(app, '/trx', r)).json().meta).toMatchObject({ total: 2, total_capped: false })
    expect((await get(app, '/balance/mutations', r)).json().meta).toMatchObject({ total: 2, total_capped: false })
    // Filtered lists still count their rows.
    expect((await get(app, '/trx?status=paid', r)).json().meta.total).toBe(1)
    expect((await get(app, '/balance/mutations?type=purchase', r)).json().meta.total).toBe(1)
  })

  it('sandbox runs the checks, charges and reserves nothing, and its ref works for a real order later', async () => {
    const r = await createReseller(app, { balance: 10_000 })
    const auto = await createAutoItem(app, 1, { price: 10_000, min_order: 1 })
    const sandbox = (path: string, payload: object) => app.inject({ method: 'POST', url: `/api/v1${path}`, headers: r.headers, payload })
    const res = await sandbox('/order/sandbox', { ref_id: 'go-live', item_id: auto.id, quantity: 1 })
    expect(res.statusCode).toBe(200)
    expect(res.json().data).toMatchObject({ ref_id: 'go-live', status: 'sandbox' })
    expect(res.json().data.invoice).toMatch(/^SBX/)
    expect((await sandbox('/order/sandbox', { ref_id: 'go-live', item_id: auto.id, quantity: 1 })).json()).toEqual({
      message: 'REF_ID_ALREADY_EXIST',
      errors: { ref_id: ['The ref id has already been used.'] },
      data: { ...res.json().data, amount: 10_000, created_at: expect.any(String) },
    })
    expect((await sandbox('/order/sandbox', { ref_id: 'sb-2', item_id: auto.id, quantity: 2 })).json()).toEqual({
      message: 'OUT_OF_STOCK',
      errors: { quantity: ['only 1 available'] },
      data: { item_id: auto.id, available: 1 },
    })
    expect((await sandbox('/order/sandbox', { ref_id: 'sb-3', item_id: 999_999, quantity: 1 })).json().message).toBe('ITEM_NOT_FOUND')
    const unlimited = await createItem(app, { order_process: 'manual', unlimited_stock: true })
    expect((await sandbox('/order/sandbox', { ref_id: 'sb-4', item_id: unlimited.id, quantity: 1000 })).statusCode).toBe(200)
    await admin(app, 'POST', '/providers', { code: 'sb-h2h', kind: 'digiflazz', base_url: 'http://127.0.0.1:9/v1' })
    const h2h = await createItem(app, { order_process: 'h2h', unlimited_stock: true, provider: 'sb-h2h', provider_code: 'x' })
    // The line's note rules, as a purchase runs them: an h2h item needs its target.
    const noTarget = await sandbox('/order/sandbox', { ref_id: 'sb-5', item_id: h2h.id, quantity: 1 })
    expect([noTarget.statusCode, noTarget.json()]).toEqual([
      422,
      { message: 'REQUIRED_FIELD_MISSING', errors: { note: ['the target number, account or link is required'] } },
    ])
    expect((await buy(app, r, 'sb-5', [{ item_id: h2h.id, quantity: 1 }])).json().message).toBe('REQUIRED_FIELD_MISSING')
    expect((await sandbox('/order/sandbox', { ref_id: 'sb-5', item_id: h2h.id, quantity: 1, note: '0812' })).statusCode).toBe(200)
    // like a real purchase: a switched-off provider's item is not sold
    await admin(app, 'PATCH', '/providers/sb-h2h', { active: false })
    expect((await sandbox('/order/sandbox', { ref_id: 'sb-6', item_id: h2h.id, quantity: 1, note: '0812' })).json().message).toBe(
      'PRODUCT_TEMPORARILY_UNAVAILABLE',
    )
    expect(await balanceOf(app, r)).toBe(10_000)
    expect(await stockOf(app, r, auto.id)).toBe(1)
    expect((await get(app, '/trx/go-live', r)).json().data.status).toBe('sandbox')
    // By its invoice too, and only in its own account.
    const byInvoice = `/trx/${res.json().data.invoice}`
    expect((await get(app, byInvoice, r)).json().data).toMatchObject({ ref_id: 'go-live', status: 'sandbox' })
    expect((await get(app, byInvoice, await createReseller(app))).statusCode).toBe(404)
    expect((await get(app, '/trx', r)).json().data).toEqual([])
    const real = await buy(app, r, 'go-live', [{ item_id: auto.id, quantity: 1 }])
    expect(real.statusCode).toBe(200)
    expect((await get(app, '/trx/go-live', r)).json().data.status).toBe('completed')
  })

  it("finds the older order when one's ref_id is another's invoice, and an invoice-like ref_id by itself", async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 5, { price: 1_000 })
    const first = (await buy(app, r, 'first', [{ item_id: item.id, quantity: 1 }])).json().data
    // A later order whose ref_id is the first's invoice: the invoice is probed too, and the older wins.
    expect((await buy(app, r, first.invoice, [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
    expect((await get(app, `/trx/${first.invoice}`, r)).json().data).toMatchObject({ id: first.id, ref_id: 'first' })
    // Shaped like an invoice, no order's invoice: found by its ref_id.
    const lookalike = `INV${first.invoice.slice(3, 11)}ZZZZZZZZ`
    expect((await buy(app, r, lookalike, [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
    expect((await get(app, `/trx/${lookalike}`, r)).json().data.ref_id).toBe(lookalike)
  })

  it('answers concurrent polls of many accounts in shared statements, each with its own order and balance', async () => {
    // The readers over a prepared statement that counts what it sends.
    const sent: string[] = []
    const counting: PreparedStatement = (name, text, values) => (sent.push(name), ctx.prepared(name, text, values))
    ctx.detailByRef = detailByRefReader(counting, ctx.vault)
    ctx.accountCounters = accountCountersReader(counting)
    const item = await createAutoItem(app, 12, { price: 700 })
    const shops = []
    for (let i = 0; i < 6; i++) {
      const shop = await createReseller(app, { balance: 10_000 + i })
      // The same ref_id in every account: each poll must find its own account's order.
      await buy(app, shop, 'same-ref', [{ item_id: item.id, quantity: 1 + (i % 2) }])
      shops.push(shop)
    }
    const own = await Promise.all(shops.map(async (shop) => (await get(app, '/trx/same-ref', shop)).json().data))
    sent.length = 0
    const polls = await Promise.all(
      shops.flatMap((shop, i) => [
        get(app, '/trx/same-ref', shop),
        get(app, `/trx/${own[i].invoice}`, shop),
        // Another account's invoice is not found, even in the same statement as its owner's poll.
        get(app, `/trx/${own[(i + 1) % shops.length].invoice}`, shop),
        get(app, '/balance', shop),
      ]),
    )
    shops.forEach((shop, i) => {
      const [byRef, byInvoice, foreign, balance] = polls.slice(i * 4, i * 4 + 4)
      expect(byRef.json().data).toEqual(own[i])
      expect(byRef.json().data.items[0].quantity).toBe(1 + (i % 2))
      expect(byInvoice.json().data).toEqual(own[i])
      expect([foreign.statusCode, foreign.json()]).toEqual([404, { message: 'TRX_NOT_FOUND' }])
      expect(balance.json().data.balance).toBe(10_000 + i - 700 * (1 + (i % 2)))
    })
    // 12 order polls and 6 balances in a handful of statements (the 6 misses each ask for a top-up or sandbox order).
    expect(sent.filter((name) => name === 'trx_details').length).toBeLessThan(4)
    expect(sent.filter((name) => name === 'account_counters').length).toBeLessThan(3)
    expect(sent.filter((name) => name === 'trx_detail_other').length).toBe(6)
  })
})

describe('the fields the public docs list', () => {
  it('the create response carries price, fees and contact; retrieval the transaction’s and each line’s fields', async () => {
    const account = await admin(app, 'POST', '/resellers', { name: 'Mail Shop', email: 'shop@example.com' })
    await admin(app, 'POST', `/resellers/${account.id}/balance`, { amount: 100_000, reason: 'test funding' })
    const r = { id: account.id, apiKey: account.api_key, headers: { 'x-apikey': account.api_key } }
    const auto = await createAutoItem(app, 2, { price: 5_000, description: 'Redeem within 30 days.' })
    const manual = await createItem(app, { order_process: 'manual', stock: 2, price: 3_000 })
    const res = await buy(app, r, 'docs-fields', [
      { item_id: auto.id, quantity: 2 },
      { item_id: manual.id, quantity: 1, note: 'me@example.com' },
    ])
    expect(res.json().data).toMatchObject({ status: 'paid', price: 13_000, fees: 0, amount: 13_000, contact: 'shop@example.com' })

    const read = async () => (await get(app, '/trx/docs-fields', r)).json().data
    const order = await read()
    // A balance purchase has no note, payment link, QR link or expiry.
    expect(order).toMatchObject({ price: 13_000, fees: 0, amount: 13_000, note: null, payment_link: null, qr_link: null, expired_at: null })
    expect(order.items[0]).toMatchObject({
      product_id: auto.product_id,
      quantity: 2,
      qty: 2,
      status: 'completed',
      product_license: expect.stringContaining('\n'),
      seller_note: null,
      description: 'Redeem within 30 days.',
    })
    // Not auto: product_license null until sent; an item without a description shows null.
    expect(order.items[1]).toMatchObject({ qty: 1, status: 'pending', product_license: null, seller_note: null, description: null })
    expect(order.items[1]).not.toHaveProperty('licenses')

    const line = (await admin(app, 'GET', `/transactions/${order.id}`)).items[1]
    await admin(app, 'POST', `/transactions/${order.id}/items/${line.id}/send`, { product_license: 'CODE-9', note: 'enjoy' })
    expect((await read()).items[1]).toMatchObject({ status: 'sent', product_license: 'CODE-9', seller_note: 'enjoy' })
    // An account without an email has no contact.
    const plain = await createReseller(app, { balance: 10_000 })
    expect((await buy(app, plain, 'no-mail', [{ item_id: manual.id, quantity: 1 }])).json().data.contact).toBeNull()
  })

  it('a top-up read back: amount = price + fees, its payment link, the QR link on QRIS only, its expiry; its ref_id refused with errors', async () => {
    await admin(app, 'POST', '/channels', {
      code: 'QRISD',
      name: 'QRIS',
      type: 'qris',
      fee_flat: 750,
      fee_percent: 0.7,
      max_amount: 5_000_000,
    })
    await admin(app, 'POST', '/channels', { code: 'BCAVAD', name: 'BCA VA', type: 'va', fee_flat: 4_000, max_amount: 5_000_000 })
    const r = await createReseller(app, { balance: 10_000 })
    const topUp = async (payload: object) =>
      (await app.inject({ method: 'POST', url: '/api/v1/balance', headers: r.headers, payload })).json().data
    const qris = await topUp({ amount: 50_000, channel: 'QRISD', ref_id: 'tu-qris' })
    const va = await topUp({ amount: 20_000, channel: 'BCAVAD', ref_id: 'tu-va' })
    expect((await get(app, '/trx/tu-qris', r)).json().data).toMatchObject({
      type: 'topup',
      price: 50_000,
      fees: qris.fee,
      amount: 50_000 + qris.fee,
      total: qris.total,
      note: null,
      payment_link: qris.payment_url,
      qr_link: qris.payment_url,
      expired_at: qris.expires_at,
      items: [],
    })
    expect((await get(app, '/trx/tu-va', r)).json().data).toMatchObject({
      amount: 24_000,
      payment_link: va.payment_url,
      qr_link: null,
      expired_at: va.expires_at,
    })
    const taken = { message: 'REF_ID_ALREADY_EXIST', errors: { ref_id: ['The ref id has already been used.'] } }
    const item = await createAutoItem(app, 1, { price: 1_000 })
    expect((await buy(app, r, 'tu-qris', [{ item_id: item.id, quantity: 1 }])).json()).toEqual({
      ...taken,
      data: {
        id: expect.any(Number),
        invoice: qris.invoice,
        ref_id: 'tu-qris',
        amount: 50_000,
        status: 'pending',
        created_at: expect.any(String),
      },
    })
    const again = await app.inject({
      method: 'POST',
      url: '/api/v1/balance',
      headers: r.headers,
      payload: { amount: 10_000, channel: 'QRISD', ref_id: 'tu-va' },
    })
    expect(again.json()).toMatchObject({ ...taken, data: { ref_id: 'tu-va' } })
  })
})
