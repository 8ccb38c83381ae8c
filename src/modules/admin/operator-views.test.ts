import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createAutoItem, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'

const { app } = await createTestApp()
const authorization = 'Bearer test-admin-token-0123456789'
// The whole answer (data and meta); admin() returns only data.
const read = async (url: string) => (await app.inject({ method: 'GET', url: `/api/admin/v1${url}`, headers: { authorization } })).json()

describe('operator API: what the console reads', () => {
  it('overview: sales today and this month, balances held, queues', async () => {
    const empty = await read('/overview')
    expect(empty.data).toMatchObject({ time_zone: 'Asia/Jakarta', sales_today: { count: 0, amount: 0 }, balances_held: 0 })
    const shop = await createReseller(app, { balance: 100_000 })
    const auto = await createAutoItem(app, 3, { price: 7_000 })
    const manual = await createItem(app, { order_process: 'manual', stock: 5, price: 11_000 })
    await buy(app, shop, 'ov-1', [{ item_id: auto.id, quantity: 1 }])
    const pending = (await buy(app, shop, 'ov-2', [{ item_id: manual.id, quantity: 1 }])).json().data
    const canceled = (await buy(app, shop, 'ov-3', [{ item_id: manual.id, quantity: 1 }])).json().data
    await admin(app, 'POST', `/transactions/${canceled.id}/cancel`, { reason: 'test' })

    const { data } = await read('/overview')
    // Canceled orders are no sales; the refund is back in the balance held, the stock back on the item.
    expect(data.sales_today).toEqual({ count: 2, amount: 18_000 })
    expect(data.sales_month).toEqual({ count: 2, amount: 18_000 })
    expect(data.balances_held).toBe(100_000 - 18_000)
    expect(data.queues).toMatchObject({ manual_lines: 1, upstream_review: 0, webhooks_failing: 0, topups_pending: 0, low_stock: 2 })
    expect(data.low_stock.map((i: { id: number; available: number }) => [i.id, i.available])).toEqual([
      [auto.id, 2],
      [manual.id, 4],
    ])

    const awaiting = await read('/transactions?awaiting=manual')
    expect(awaiting.data.map((o: { id: number }) => o.id)).toEqual([pending.id])
    // A row is the reseller's order summary and whose it is; the meta, a capped page's.
    // The list's row is the summary: the create response's price, fees and contact are not in it.
    const { price: _price, fees: _fees, contact: _contact, ...summary } = pending
    expect(awaiting.data[0]).toEqual({ ...summary, account_id: shop.id })
    expect(awaiting.meta).toEqual({ page: 1, per_page: 50, total: 1, last_page: 1, total_capped: false, next_cursor: null })
    const byInvoice = await read(`/transactions?ref=${pending.invoice}`)
    const byRef = await read('/transactions?ref=ov-2')
    expect([byInvoice.data, byRef.data].map((rows) => rows.map((o: { id: number }) => o.id))).toEqual([[pending.id], [pending.id]])

    const detail = await read(`/transactions/${canceled.id}`)
    expect(detail.data.ledger_entries.map((e: { type: string; amount: number }) => [e.type, e.amount])).toEqual([
      ['purchase', 11_000],
      ['refund', 11_000],
    ])
    const mutations = await read(`/resellers/${shop.id}/mutations?type=refund`)
    expect(mutations.data).toHaveLength(1)
    expect(mutations.meta.total).toBe(1)
  })

  it('lists and searches resellers and items; an unknown account is ACCOUNT_NOT_FOUND', async () => {
    const shop = await createReseller(app, { name: 'Warung Searchable' })
    const found = await read('/resellers?search=searchABLE')
    expect(found.data.map((a: { id: number }) => a.id)).toEqual([shop.id])
    expect(found.meta).toEqual({ page: 1, per_page: 50, total: 1, last_page: 1 })
    expect((await read(`/resellers?search=${shop.id}`)).data.map((a: { id: number }) => a.id)).toContain(shop.id)
    const off = await createItem(app, { name: 'Hidden Variant', active: false })
    const items = await read('/items?search=hidden variant')
    expect(items.data.map((i: { id: number; active: boolean }) => [i.id, i.active])).toEqual([[off.id, false]])
    const missing = await app.inject({ method: 'GET', url: '/api/admin/v1/resellers/999999/mutations', headers: { authorization } })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toEqual({ message: 'ACCOUNT_NOT_FOUND' })
  })
})
