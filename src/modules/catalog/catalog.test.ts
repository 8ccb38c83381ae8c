import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { onPostgres } from '../../../test/database.js'
import { eventually } from '../../../test/eventually.js'
import { admin, createAutoItem, createItem, createReseller, get } from '../../../test/factory.js'
import { holdItemExclusively } from './catalog.queries.js'

// validation.fields as the public docs show them: { key, label, required }.
const CUSTOMER_FIELDS = [{ key: 'customer_id', label: 'User ID or customer number', required: true }]
const ZONE_FIELDS = [...CUSTOMER_FIELDS, { key: 'zone_id', label: 'Zone ID (server)', required: true }]

const { app, ctx } = await createTestApp()
const r = await createReseller(app)

let unique = 0
/** A category name no other test uses, so its listing is this test's alone. */
const category = (label: string) => `${label} ${++unique}-${process.pid}`
const catalog = async (query = '') => {
  const res = await get(app, `/item${query}`, r)
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}
const variantsOf = (body: any) => body.data.flatMap((c: any) => c.products.flatMap((p: any) => p.variants))
const idsOf = (body: any) => variantsOf(body).map((v: any) => v.id)
/** Moves every catalog change (edits, and license sales) an hour back, so a delta taken now starts empty. */
async function backdateAll() {
  await sql`update items set updated_at = now() - interval '1 hour'`.execute(ctx.db)
  // A variant's time at a level is its item's or its level price's, the later (docs/design.md §5d).
  await sql`update item_level_prices set changed_at = now() - interval '1 hour'`.execute(ctx.db)
  await sql`update licenses set sold_at = now() - interval '1 hour' where sold_at is not null`.execute(ctx.db)
  // Written behind the service's back: the listing's snapshot is renewed now rather than within the second.
  ctx.catalog.invalidate()
}

describe('GET /v1/item', () => {
  it('nests categories → products → variants with every variant field', async () => {
    const cat = category('Games')
    const plain = await createItem(app, {
      category: cat,
      product_name: 'Steam Wallet',
      name: 'Steam 60k',
      sku: `STEAM-${unique}`,
      price: 61_500,
    })
    await createItem(app, { category: cat, product_name: 'Steam Wallet', name: 'Steam 120k', price: 120_000 })
    await createItem(app, { category: cat, product_name: 'PSN Card', name: 'PSN 100k', price: 100_000 })
    await admin(app, 'POST', '/providers', { code: `dgf-${unique}`, kind: 'digiflazz', base_url: 'https://api.digiflazz.com/v1' })
    const h2h = await createItem(app, {
      category: cat,
      product_name: 'PSN Card',
      name: 'PSN open',
      price: 1_000,
      order_process: 'h2h',
      unlimited_stock: true,
      provider: `dgf-${unique}`,
      provider_meta: { open_denom: true, min_qty: 10, max_qty: 500, step_qty: 5, validation: true, requires_zone_id: true },
      description: 'any amount',
    })

    const body = await catalog(`?category=${encodeURIComponent(cat)}`)
    expect(body.message).toBe('OK')
    expect(body.server_time).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/)
    expect(body.meta).toEqual({ total_items: 4, is_delta: false, page: 1, per_page: 100, last_page: 1 })
    expect(body.data).toHaveLength(1)
    // The public docs filter by the category's slug: derived from its name.
    expect(body.data[0]).toMatchObject({ id: expect.any(Number), name: cat, slug: `games-${unique}-${process.pid}`, icon: null })
    expect(body.data[0].products.map((p: any) => [p.name, p.image, p.variants.map((v: any) => v.name)])).toEqual([
      ['Steam Wallet', null, ['Steam 60k', 'Steam 120k']],
      ['PSN Card', null, ['PSN 100k', 'PSN open']],
    ])
    const [steam60] = body.data[0].products[0].variants
    expect(steam60).toEqual({
      id: plain.id,
      sku: `STEAM-${unique}`,
      name: 'Steam 60k',
      price: 61_500,
      stock: 0,
      unlimited_stock: false,
      min_order: 1,
      max_order: null,
      order_process: 'auto',
      status: 'on',
      h2h_provider: null,
      provider_meta: { open_denom: false, min_qty: null, max_qty: null, step_qty: null },
      postpaid: false,
      required_fields: [],
      validation: { available: false, requires_zone_id: false, fields: [], endpoint: null },
      description: '',
      updated_at: expect.stringMatching(/Z$/),
      category: cat,
    })
    expect(variantsOf(body).find((v: any) => v.id === h2h.id)).toMatchObject({
      stock: null,
      unlimited_stock: true,
      order_process: 'h2h',
      h2h_provider: `dgf-${unique}`,
      provider_meta: { open_denom: true, min_qty: 10, max_qty: 500, step_qty: 5, price_unit: 1, qty_label: null },
      // The nominal's bounds, as a purchase checks them (docs/design.md §5).
      required_fields: [
        { key: 'note', label: expect.any(String), required: true },
        { key: 'provider_qty', label: 'Nominal', required: true, min: 10, max: 500, step: 5 },
      ],
      // A variant's validation names where to ask.
      validation: { available: true, requires_zone_id: true, fields: ZONE_FIELDS, endpoint: '/api/v1/item/validate' },
      description: 'any amount',
    })
  })

  it('pages over variants: per_page default 100, a number, all; 501 is taken as 500', async () => {
    const cat = category('Paged')
    const items = [
      await createItem(app, { category: cat }),
      await createItem(app, { category: cat }),
      await createItem(app, { category: cat }),
    ]
    const q = `category=${encodeURIComponent(cat)}`
    const [first, second] = [await catalog(`?${q}&per_page=2`), await catalog(`?${q}&per_page=2&page=2`)]
    expect(first.meta).toEqual({ total_items: 3, is_delta: false, page: 1, per_page: 2, last_page: 2 })
    expect(second.meta).toEqual({ total_items: 3, is_delta: false, page: 2, per_page: 2, last_page: 2 })
    expect([...idsOf(first), ...idsOf(second)]).toEqual(items.map((i) => i.id))

    const all = await catalog('?per_page=all')
    const { rows } = await sql<{ n: number }>`select count(*) as n from items where active`.execute(ctx.db)
    expect(all.meta).toMatchObject({ total_items: rows[0].n, per_page: rows[0].n, page: 1, last_page: 1 })
    expect(idsOf(all)).toHaveLength(rows[0].n)
    expect((await catalog()).meta.per_page).toBe(100)
    // Sent from the snapshot's kept bytes: still JSON in UTF-8, its length in bytes.
    const raw = await get(app, '/item?per_page=all', r)
    expect(raw.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(Number(raw.headers['content-length'])).toBe(Buffer.byteLength(raw.body))

    expect((await get(app, '/item?per_page=501', r)).json().meta.per_page).toBe(500)
    for (const bad of ['0', 'some']) {
      const res = await get(app, `/item?per_page=${bad}`, r)
      expect(res.statusCode).toBe(422)
      expect(res.json()).toMatchObject({ message: 'VALIDATION_ERROR', errors: { per_page: expect.any(Array) } })
    }
  })

  it('filters by category id or case-insensitive name, and searches item name, product name and sku', async () => {
    const cat = category('Pulsa Operator')
    const sku = `WOMBAT-${process.pid}`
    const a = await createItem(app, { category: cat, product_name: 'Quokka Credit', name: 'Zephyr 10k', sku })
    const b = await createItem(app, { category: cat, product_name: 'Other', name: 'Plain' })
    await createItem(app, { category: category('Elsewhere'), product_name: 'Quokka Credit', name: 'Far' })

    const byName = await catalog(`?category=${encodeURIComponent(cat.toUpperCase())}`)
    expect(idsOf(byName)).toEqual([a.id, b.id])
    const byId = await catalog(`?category=${byName.data[0].id}`)
    expect(idsOf(byId)).toEqual([a.id, b.id])
    expect(idsOf(await catalog('?category=no-such-category'))).toEqual([])
    // By slug, as the public docs filter.
    const slug = byName.data[0].slug
    expect(slug).toBe(`pulsa-operator-${unique - 1}-${process.pid}`)
    expect(idsOf(await catalog(`?category=${slug}`))).toEqual([a.id, b.id])

    expect(idsOf(await catalog('?search=zephyr'))).toEqual([a.id])
    expect(idsOf(await catalog(`?search=${sku.toLowerCase()}`))).toEqual([a.id])
    expect(variantsOf(await catalog('?search=QUOKKA')).map((v: any) => v.name)).toEqual(['Zephyr 10k', 'Far'])
    expect(idsOf(await catalog(`?search=quokka&category=${encodeURIComponent(cat)}`))).toEqual([a.id])
    // LIKE wildcards in a search are literal characters.
    expect(idsOf(await catalog('?search=%25'))).toEqual([])
  })

  it('gives each category a unique slug from its name, renewed on a rename', async () => {
    const name = category('Top Up & Café')
    const first = await admin(app, 'POST', '/categories', { name })
    const base = `top-up-cafe-${unique}-${process.pid}`
    expect(first.slug).toBe(base)
    // Another name with the same slug gets the next free one; so does an item's new category.
    expect((await admin(app, 'POST', '/categories', { name: `${name}!` })).slug).toBe(`${base}-2`)
    const item = await createItem(app, { category: `${name}?`, product_name: 'Slugged' })
    const listed = await catalog(`?category=${base}-3`)
    expect(listed.data.map((c: any) => [c.name, c.slug])).toEqual([[`${name}?`, `${base}-3`]])
    expect(idsOf(listed)).toEqual([item.id])
    // A rename re-derives it: the old slug finds nothing, the new one the category's items.
    const renamed = await admin(app, 'PATCH', `/categories/${listed.data[0].id}`, { name: `Vouchers ${unique}` })
    expect(renamed.slug).toBe(`vouchers-${unique}`)
    expect(idsOf(await catalog(`?category=${base}-3`))).toEqual([])
    expect(idsOf(await catalog(`?category=vouchers-${unique}`))).toEqual([item.id])
  })

  it('creates one category when many items name the same new one at once', async () => {
    const cat = category('Raced')
    const items = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createItem(app, { category: cat, product_name: 'Raced product', name: `Raced ${i}` })),
    )
    const listed = await catalog(`?category=${encodeURIComponent(cat)}`)
    expect(listed.data).toHaveLength(1)
    expect(listed.data[0].products).toHaveLength(1)
    expect(idsOf(listed).sort()).toEqual(items.map((i) => i.id).sort())
  })

  it('reports stock: unsold licenses for auto (minus active locks), the counter for manual, null when unlimited', async () => {
    const cat = category('Stock')
    const auto = await createAutoItem(app, 5, { category: cat })
    const manual = await createItem(app, { category: cat, order_process: 'manual', stock: 7 })
    const unlimited = await createItem(app, { category: cat, order_process: 'manual', unlimited_stock: true })
    await sql`update licenses set status = 'sold', sold_at = now() where id = (select min(id) from licenses where item_id = ${auto.id})`.execute(
      ctx.db,
    )
    // An active lock holds stock; an expired one holds nothing, swept or not.
    await sql`insert into stock_locks (token, account_id, item_id, quantity, expires_at) values
      ('LCK-a', ${r.id}, ${auto.id}, 2, now() + interval '5 minutes'), ('LCK-b', ${r.id}, ${auto.id}, 1, now() - interval '1 second')`.execute(
      ctx.db,
    )
    ctx.catalog.invalidate()

    const stock = Object.fromEntries(variantsOf(await catalog(`?category=${encodeURIComponent(cat)}`)).map((v: any) => [v.id, v.stock]))
    expect(stock).toEqual({ [auto.id]: 2, [manual.id]: 7, [unlimited.id]: null })
    expect((await get(app, `/item/${auto.id}`, r)).json().data.stock).toBe(2)
  })
})

describe('GET /v1/item/{id}', () => {
  it('answers one flat variant with product_id, product_name and category', async () => {
    const cat = category('Detail')
    const item = await createItem(app, { category: cat, product_name: 'Google Play', name: 'GP 5B', price: 5_000_000_000 })
    const res = await get(app, `/item/${item.id}`, r)
    expect(res.statusCode).toBe(200)
    const { data } = res.json()
    expect(data).toMatchObject({
      id: item.id,
      name: 'GP 5B',
      price: 5_000_000_000,
      product_name: 'Google Play',
      category: cat,
      product_id: expect.any(Number),
    })
    expect(data).not.toHaveProperty('products')
    expect(res.body).toContain('"price":5000000000')
    const listed = variantsOf(await catalog(`?category=${encodeURIComponent(cat)}`))[0]
    expect(data).toEqual({ ...listed, product_id: data.product_id, product_name: 'Google Play', category: cat })
  })

  it('answers 404 ITEM_NOT_FOUND for an unknown or inactive item, 422 for a bad id', async () => {
    const inactive = await createItem(app, { active: false })
    for (const id of [inactive.id, 999_999]) {
      const res = await get(app, `/item/${id}`, r)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: 'ITEM_NOT_FOUND' })
    }
    expect(idsOf(await catalog('?per_page=all'))).not.toContain(inactive.id)
    const bad = await get(app, '/item/abc', r)
    expect(bad.statusCode).toBe(422)
    expect(bad.json()).toMatchObject({ message: 'VALIDATION_ERROR', errors: { id: expect.any(Array) } })
  })
})

describe('catalog secrecy and provider status', () => {
  it('never shows a license text', async () => {
    const secret = `TOPSECRET-${process.pid}-LICENSE`
    const item = await createItem(app, { category: category('Vouchers') })
    await admin(app, 'POST', `/items/${item.id}/licenses`, { licenses: [secret, `${secret}-2`] })
    const answers = [
      await get(app, '/item?per_page=all', r),
      await get(app, `/item/${item.id}`, r),
      await get(app, `/item?updated_since=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}`, r),
      await get(app, `/item?search=${secret}`, r),
    ]
    expect(answers[1].json().data.stock).toBe(2)
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200)
      expect(answer.body).not.toContain('TOPSECRET')
    }
    expect(idsOf(answers[3].json())).toEqual([])
  })

  it("shows a switched-off provider's items as status off, and back on", async () => {
    const code = `smm-${unique}-${process.pid}`
    await admin(app, 'POST', '/providers', { code, kind: 'smm_panel', base_url: 'https://panel.example/api/v2' })
    const item = await createItem(app, { category: category('Social'), order_process: 'smm', unlimited_stock: true, provider: code })
    const other = await createItem(app, { category: category('Social') })
    await backdateAll()
    const since = (await catalog()).server_time

    await admin(app, 'PATCH', `/providers/${code}`, { active: false })
    expect((await get(app, `/item/${item.id}`, r)).json().data.status).toBe('off')
    expect(variantsOf(await catalog('?per_page=all')).find((v: any) => v.id === item.id).status).toBe('off')
    expect((await get(app, `/item/${other.id}`, r)).json().data.status).toBe('on')
    // The switch is a catalog change: resellers syncing by delta learn it.
    expect(variantsOf(await catalog(`?updated_since=${since}`)).map((v: any) => [v.id, v.status])).toEqual([[item.id, 'off']])

    await admin(app, 'PATCH', `/providers/${code}`, { active: true })
    expect((await get(app, `/item/${item.id}`, r)).json().data.status).toBe('on')
  })
})

describe('delta sync with updated_since', () => {
  it('answers exactly the variants changed since a server_time, including deactivated ones', async () => {
    const cat = category('Delta')
    const priced = await createItem(app, { category: cat })
    const restocked = await createAutoItem(app, 1, { category: cat })
    const retired = await createItem(app, { category: cat })
    const untouched = await createItem(app, { category: cat })
    const before = (await catalog()).server_time
    await backdateAll()
    // Backdated rows are older than a server_time taken before: nothing has changed since.
    const none = await catalog(`?updated_since=${before}`)
    expect(none.meta).toMatchObject({ total_items: 0, is_delta: true })
    expect(none.data).toEqual([])

    const since = (await catalog()).server_time
    await admin(app, 'PATCH', `/items/${priced.id}`, { price: 12_345 })
    await admin(app, 'POST', `/items/${restocked.id}/licenses`, { licenses: [`NEW-${process.pid}-1`, `NEW-${process.pid}-2`] })
    const delta = await catalog(`?updated_since=${encodeURIComponent(since)}`)
    expect(delta.meta).toEqual({ total_items: 2, is_delta: true, page: 1, per_page: 100, last_page: 1 })
    expect(variantsOf(delta).map((v: any) => [v.id, v.price, v.stock])).toEqual([
      [priced.id, 12_345, 0],
      [restocked.id, 10_000, 3],
    ])
    // The cursor stands still while a transaction older than the change is open anywhere in the cluster.
    expect(delta.server_time >= since).toBe(true)

    await admin(app, 'PATCH', `/items/${retired.id}`, { active: false })
    const withRetired = variantsOf(await catalog(`?updated_since=${since}`))
    expect(withRetired.map((v: any) => [v.id, v.status])).toEqual([
      [priced.id, 'on'],
      [restocked.id, 'on'],
      [retired.id, 'off'],
    ])
    const full = idsOf(await catalog(`?category=${encodeURIComponent(cat)}`))
    expect(full).toEqual([priced.id, restocked.id, untouched.id])

    const bad = await get(app, '/item?updated_since=yesterday', r)
    expect(bad.statusCode).toBe(422)
    expect(bad.json()).toMatchObject({ message: 'VALIDATION_ERROR', errors: { updated_since: expect.any(Array) } })
  })
})

describe('delta sync and commit order', () => {
  // A purchase that began before a listing but commits after it must be in the next delta.
  it.skipIf(!onPostgres)('a sale committed after a listing is in the delta from that listing (PostgreSQL)', async () => {
    const buyer = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 5, { category: category('Slow') })
    await backdateAll()
    let letGo!: () => void
    let holding!: () => void
    const held = new Promise<void>((resolve) => (holding = resolve))
    const holder = ctx.db.transaction().execute(async (trx) => {
      await holdItemExclusively(trx, item.id)
      holding()
      await new Promise<void>((resolve) => (letGo = resolve))
    })
    await held
    const sale = app.inject({
      method: 'POST',
      url: '/api/v1/trx',
      headers: buyer.headers,
      payload: { ref_id: 'slow-sale', carts: [{ item_id: item.id, quantity: 1 }] },
    })
    // The sale waits on the held row: PostgreSQL shows a session of this database waiting on a lock.
    const waitingOnLocks = async () =>
      (
        await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(ctx.db)
      ).rows[0].n
    await eventually('the sale waits on the held item', waitingOnLocks, (n) => n >= 1)
    const listing = await catalog()
    letGo()
    await holder
    expect((await sale).statusCode).toBe(200)
    // A sale reaches the listing's snapshot within a second; the test does not wait for it.
    ctx.catalog.invalidate()
    const delta = await catalog(`?updated_since=${encodeURIComponent(listing.server_time)}`)
    expect(
      variantsOf(delta)
        .filter((v: any) => v.id === item.id)
        .map((v: any) => v.stock),
    ).toEqual([4])
  })
})
