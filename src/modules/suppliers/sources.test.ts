import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { admin, createAutoItem, createItem, createReseller, type Reseller } from '../../../test/factory.js'
import { balanceOf, buy } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'
import { addSimulatedProvider, addSimulatedProviders, startUpstreams } from '../../../test/upstreams.js'

// An item's sources (docs/design.md §11b): the admin list, and availability that follows the suppliers'
// lists as synced from the simulator (a product off, gone, or inside its cut-off hours in WIB).
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000' })
const up = await startUpstreams()
afterAll(() => up.close())
await addSimulatedProviders(app, up)
await addSimulatedProvider(app, up, 'digiflazz', 'dgf2')
const prepaid = up.digiflazz.priceLists.prepaid
const sync = async () => {
  for (const code of ['dgf', 'dgf2', 'panel']) await admin(app, 'POST', `/providers/${code}/sync?force=true`)
}
await sync()

type Source = { provider: string; code: string; priority: number }
const put = (itemId: number, sources: Source[] | unknown) =>
  app.inject({
    method: 'PUT',
    url: `/api/admin/v1/items/${itemId}/sources`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { sources },
  })
const itemRow = (id: number) =>
  ctx.db.selectFrom('items').select(['price', 'cost', 'provider', 'provider_code']).where('id', '=', id).executeTakeFirstOrThrow()

async function h2hItem(sources: Source[]) {
  const item = await createItem(app, { order_process: 'h2h', price: 50_000, unlimited_stock: true, provider: 'dgf', provider_code: 'ml86' })
  const res = await put(item.id, sources)
  expect(res.statusCode, res.body).toBe(200)
  return item.id as number
}
let refs = 0
async function attempt(r: Reseller, itemId: number) {
  const ref = `src-${++refs}`
  const res = await buy(app, r, ref, [{ item_id: itemId, quantity: 1, note: '081266600001' }])
  return { status: res.statusCode, body: res.json(), ref }
}
const dispatchOf = (ref: string) =>
  ctx.db
    .selectFrom('dispatches')
    .innerJoin('orders', 'orders.id', 'dispatches.order_id')
    .innerJoin('order_lines', 'order_lines.id', 'dispatches.order_line_id')
    .select(['dispatches.provider', 'dispatches.provider_code', 'dispatches.cost', 'order_lines.cost as line_cost'])
    .where('orders.ref_id', '=', ref)
    .executeTakeFirstOrThrow()

/** "HH:MM" in WIB, `minutes` from now. */
const wib = (minutes: number) => {
  const d = new Date(Date.now() + (7 * 60 + minutes) * 60_000)
  return `${d.getUTCHours()}:${d.getUTCMinutes()}`
}

describe('GET and PUT /items/{id}/sources', () => {
  it('replaces the list, shows each supplier product and whether it serves, and points the item at its first source', async () => {
    const id = await h2hItem([
      { provider: 'dgf2', code: ' ml172 ', priority: 5 },
      { provider: 'dgf', code: 'tsel10', priority: 2 },
      { provider: 'dgf', code: 'unsynced', priority: 9 },
    ])
    const view = await admin(app, 'GET', `/items/${id}/sources`)
    expect(view).toEqual({
      item_id: id,
      sources: [
        {
          provider: 'dgf',
          kind: 'digiflazz',
          code: 'tsel10',
          priority: 2,
          product: { name: 'Telkomsel 10.000', price: 10_150, active: true, gone_at: null, cut_off_start: null, cut_off_end: null },
          serving_now: true,
        },
        {
          provider: 'dgf2',
          kind: 'digiflazz',
          code: 'ml172',
          priority: 5,
          product: expect.objectContaining({ price: 38_900 }),
          serving_now: true,
        },
        // Linked by hand before any sync listed it: it serves, as the operator said.
        { provider: 'dgf', kind: 'digiflazz', code: 'unsynced', priority: 9, product: null, serving_now: true },
      ],
    })
    // The item follows its first source, and its cost is that source's price (repriceItems).
    expect(await itemRow(id)).toMatchObject({ provider: 'dgf', provider_code: 'tsel10', cost: 10_150 })

    // Emptied, the item keeps its provider and sells through it as before.
    expect((await put(id, [])).json().data).toEqual({ item_id: id, sources: [] })
    expect(await itemRow(id)).toMatchObject({ provider: 'dgf', provider_code: 'tsel10' })
  })

  it('refuses a bad list whole with 422 naming each field; an unknown item is a 404', async () => {
    const id = await h2hItem([{ provider: 'dgf', code: 'ml86', priority: 1 }])
    const res = await put(id, [
      { provider: 'nope', code: 'ml86', priority: 1 },
      { provider: 'panel', code: '1', priority: 2 },
      { provider: 'dgf', code: '   ', priority: 2 },
      { provider: 'dgf2', code: 'ml86', priority: 3 },
      { provider: 'dgf2', code: 'ml86', priority: 4 },
    ])
    expect(res.statusCode, res.body).toBe(422)
    expect(res.json()).toMatchObject({
      message: 'VALIDATION_ERROR',
      errors: {
        'sources.0.provider': ['no provider has this code: see GET /api/admin/v1/providers'],
        'sources.1.provider': ['is a smm_panel provider; a h2h item is bought from a digiflazz one'],
        'sources.2.code': ['must not be blank'],
        'sources.2.priority': ['must differ from sources.1.priority'],
        'sources.4.code': ['is already sources.3 at this provider'],
      },
    })
    // Nothing changed.
    expect((await admin(app, 'GET', `/items/${id}/sources`)).sources).toHaveLength(1)
    expect((await put(id, [{ provider: 'dgf', code: '', priority: 1 }])).statusCode).toBe(422)
    expect((await put(id, [{ provider: 'dgf', code: 'x', priority: 1001 }])).statusCode).toBe(422)
    expect((await put(999_999, [])).statusCode).toBe(404)
    const auto = await createAutoItem(app, 0)
    expect((await put(auto.id, [{ provider: 'dgf', code: 'ml86', priority: 1 }])).json()).toMatchObject({
      errors: { sources: ['must be empty: a auto item is not bought from a supplier'] },
    })
  })
})

describe('availability follows the supplier', () => {
  it('an item whose only source is off refuses with 503 and debits nothing; back on, it serves', async () => {
    const id = await h2hItem([{ provider: 'dgf', code: 'ff140', priority: 1 }])
    const r = await createReseller(app, { balance: 100_000 })
    // The reseller's catalog says so too, and a delta from before the sync carries the change.
    const variant = async (since?: string) => {
      const query = since ? `?updated_since=${encodeURIComponent(since)}` : '?per_page=all'
      const page = (await app.inject({ method: 'GET', url: `/api/v1/item${query}`, headers: r.headers })).json()
      const variants = page.data.flatMap((c: any) => c.products.flatMap((p: any) => p.variants))
      return variants.find((v: { id: number }) => v.id === id) as { status: string } | undefined
    }
    expect((await variant())?.status).toBe('on')
    const before = (await sql<{ now: Date }>`SELECT clock_timestamp() AS now`.execute(ctx.db)).rows[0].now.toISOString()
    prepaid.change('ff140', { buyer_product_status: false })
    await sync()
    expect((await admin(app, 'GET', `/items/${id}/sources`)).sources[0].serving_now).toBe(false)
    expect((await variant())?.status).toBe('off')
    expect((await variant(before))?.status).toBe('off')
    const refused = await attempt(r, id)
    expect(refused.status).toBe(503)
    expect(refused.body).toMatchObject({ message: 'PRODUCT_TEMPORARILY_UNAVAILABLE' })
    expect(await balanceOf(app, r)).toBe(100_000)
    // The sandbox answers as a purchase would.
    const sandbox = await app.inject({
      method: 'POST',
      url: '/api/v1/order/sandbox',
      headers: r.headers,
      payload: { ref_id: 'src-sandbox', item_id: id, quantity: 1, note: '081266600001' },
    })
    expect([sandbox.statusCode, sandbox.json().message]).toEqual([503, 'PRODUCT_TEMPORARILY_UNAVAILABLE'])

    prepaid.change('ff140', { buyer_product_status: true })
    await sync()
    expect((await variant())?.status).toBe('on')
    expect((await attempt(r, id)).status).toBe(200)
  })

  it('with the first source off the purchase goes to the second, at its price', async () => {
    const id = await h2hItem([
      { provider: 'dgf', code: 'tsel25', priority: 1 },
      { provider: 'dgf2', code: 'dana50', priority: 2 },
    ])
    const r = await createReseller(app, { balance: 200_000 })
    const first = await attempt(r, id)
    expect(await dispatchOf(first.ref)).toEqual({ provider: 'dgf', provider_code: 'tsel25', cost: 24_900, line_cost: 24_900 })

    prepaid.change('tsel25', { seller_product_status: false })
    try {
      await sync()
      const second = await attempt(r, id)
      expect(second.status).toBe(200)
      // The line's cost is the item's (its first serving source's, once repriced); the request's is where it went.
      expect(await dispatchOf(second.ref)).toMatchObject({ provider: 'dgf2', provider_code: 'dana50', cost: 50_200 })
      // A switched-off provider is no source either.
      await admin(app, 'PATCH', '/providers/dgf2', { active: false })
      expect((await attempt(r, id)).status).toBe(503)
      await admin(app, 'PATCH', '/providers/dgf2', { active: true })
    } finally {
      prepaid.change('tsel25', { seller_product_status: true })
      await sync()
    }
    // The item's own provider (its first source's) off: the second source serves.
    await admin(app, 'PATCH', '/providers/dgf', { active: false })
    try {
      const third = await attempt(r, id)
      expect(third.status).toBe(200)
      expect(await dispatchOf(third.ref)).toMatchObject({ provider: 'dgf2', provider_code: 'dana50' })
    } finally {
      await admin(app, 'PATCH', '/providers/dgf', { active: true })
    }
  })

  it('inside its cut-off hours (WIB) a source refuses; outside them it serves; a window may wrap midnight', async () => {
    const id = await h2hItem([{ provider: 'dgf', code: 'ml172', priority: 1 }])
    const r = await createReseller(app, { balance: 200_000 })
    try {
      prepaid.change('ml172', { start_cut_off: wib(-60), end_cut_off: wib(60) })
      await sync()
      expect((await attempt(r, id)).status).toBe(503)
      // The same window the other way round: everything but the two hours around now.
      prepaid.change('ml172', { start_cut_off: wib(60), end_cut_off: wib(-60) })
      await sync()
      expect((await attempt(r, id)).status).toBe(200)
      prepaid.change('ml172', { start_cut_off: wib(120), end_cut_off: wib(180) })
      await sync()
      expect((await attempt(r, id)).status).toBe(200)
    } finally {
      prepaid.change('ml172', { start_cut_off: '0:0', end_cut_off: '0:0' })
      await sync()
    }
  })

  it('an item without sources follows its own provider, its line and requests costed from its cost', async () => {
    const item = await createItem(app, {
      order_process: 'h2h',
      price: 2_000,
      unlimited_stock: true,
      provider: 'dgf',
      provider_code: 'ml86',
    })
    await sql`UPDATE items SET cost = 1234.5 WHERE id = ${item.id}`.execute(ctx.db)
    const r = await createReseller(app, { balance: 10_000 })
    const res = await buy(app, r, 'src-unsourced', [{ item_id: item.id, quantity: 2, note: '081266600009' }])
    expect(res.statusCode, res.body).toBe(200)
    const rows = await ctx.db
      .selectFrom('dispatches')
      .innerJoin('order_lines', 'order_lines.id', 'dispatches.order_line_id')
      .select(['dispatches.provider', 'dispatches.provider_code', 'dispatches.cost', 'order_lines.cost as line_cost'])
      .where('dispatches.order_id', '=', res.json().data.id)
      .execute()
    expect(rows).toEqual([
      { provider: 'dgf', provider_code: 'ml86', cost: 1235, line_cost: 2469 },
      { provider: 'dgf', provider_code: 'ml86', cost: 1235, line_cost: 2469 },
    ])
  })

  it('gone from the list it refuses; back on the list it serves', async () => {
    const id = await h2hItem([{ provider: 'dgf', code: 'pln20', priority: 1 }])
    const r = await createReseller(app, { balance: 200_000 })
    prepaid.remove('pln20')
    await sync()
    expect((await attempt(r, id)).status).toBe(503)
    prepaid.restore('pln20')
    await sync()
    expect((await attempt(r, id)).status).toBe(200)
    await assertInvariants(ctx.db)
  })
})
