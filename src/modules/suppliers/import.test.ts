import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { eventually } from '../../../test/eventually.js'
import { admin, createReseller, get } from '../../../test/factory.js'
import { addSimulatedProvider, startUpstreams, type Upstreams } from '../../../test/upstreams.js'

// Import, pricing rules and reprice over real HTTP against the price-list simulators; each test has
// its own provider on a fresh simulator, so one test's rules and steering never reach another's.
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000' })
const opened: Upstreams[] = []
afterAll(() => Promise.all(opened.map((up) => up.close())))
const reseller = await createReseller(app)

let providers = 0
async function digiflazz() {
  const up = await startUpstreams()
  opened.push(up)
  const code = `imp-dgf-${++providers}`
  await addSimulatedProvider(app, up, 'digiflazz', code)
  await sync(code)
  return { code, prepaid: up.digiflazz.priceLists.prepaid }
}
async function panel() {
  const up = await startUpstreams()
  opened.push(up)
  const code = `imp-panel-${++providers}`
  await addSimulatedProvider(app, up, 'smm_panel', code)
  await sync(code)
  return { code, services: up.smm.services }
}

const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  app.inject({ method, url: `/api/admin/v1${url}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload })
const sync = (code: string) => admin(app, 'POST', `/providers/${code}/sync?force=true`)
const importing = (code: string, body: object) => admin(app, 'POST', `/providers/${code}/import`, body)
const item = (id: number) => admin(app, 'GET', `/items/${id}`)
async function setRule(body: object) {
  const res = await call('PUT', '/pricing-rules', body)
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data
}
const sourcesOf = (itemId: number) =>
  ctx.db.selectFrom('item_sources').select(['provider', 'code', 'priority']).where('item_id', '=', itemId).execute()

describe('POST /providers/{code}/import', () => {
  it('creates an item per product of a brand, named, categorised and costed from the list; again, nothing new', async () => {
    const { code } = await digiflazz()
    const first = await importing(code, { brands: ['mobile legends'] })
    expect(first.created.map((c: any) => [c.code, c.cost, c.price, c.rule_id])).toEqual([
      ['ml86', 19_500, 19_500, null],
      ['ml172', 38_900, 38_900, null],
    ])
    expect(first.skipped).toEqual([])
    const ml86 = await item(first.created[0].id)
    expect(ml86).toMatchObject({
      name: 'MOBILE LEGENDS 86 Diamonds',
      product_name: 'MOBILE LEGENDS',
      category: 'Games',
      order_process: 'h2h',
      h2h_provider: code,
      provider_code: 'ml86',
      unlimited_stock: true,
      postpaid: false,
      status: 'on',
      cost: 19_500,
      price: 19_500,
      price_locked: false,
      sku: `${code.toUpperCase()}-ML86`,
    })
    expect(await sourcesOf(ml86.id)).toEqual([{ provider: code, code: 'ml86', priority: 1 }])

    const again = await importing(code, { brands: ['MOBILE LEGENDS'], categories: ['Games'] })
    expect(again.created).toEqual([])
    expect(again.skipped.map((s: any) => [s.code, s.item_id])).toEqual(first.created.map((c: any) => [c.code, c.id]))
  })

  it('imports chosen codes: a postpaid product becomes a bill item; unknown codes are named; a dry run creates nothing', async () => {
    const { code, prepaid } = await digiflazz()
    prepaid.remove('tsel25')
    await sync(code)
    const dry = await importing(code, { codes: ['pln', 'tsel10', 'tsel25', 'nope'], dry_run: true })
    expect(dry).toMatchObject({ dry_run: true, not_found: ['tsel25', 'nope'] })
    expect(dry.created.map((c: any) => [c.id, c.code])).toEqual([
      [null, 'pln'],
      [null, 'tsel10'],
    ])
    expect((await importing(code, { codes: ['pln'], dry_run: true })).created).toHaveLength(1)

    const done = await importing(code, { codes: ['pln', 'tsel10', 'tsel25', 'nope'] })
    expect(done.created.map((c: any) => c.sku)).toEqual(dry.created.map((c: any) => c.sku))
    const bill = await item(done.created[0].id)
    expect(bill).toMatchObject({ name: 'PLN Pascabayar', category: 'Pascabayar', postpaid: true, order_process: 'h2h', cost: 2_500 })
    const tsel = await item(done.created[1].id)
    expect(tsel).toMatchObject({ name: 'Telkomsel 10.000', product_name: 'TELKOMSEL', category: 'Pulsa', postpaid: false, cost: 10_150 })
  })

  it('imports panel services with their min and max, costed per unit (the rate / 1,000)', async () => {
    const { code } = await panel()
    await setRule({ scope: 'provider', provider: code, percent: 0, flat: 0, round_to: 1, min_margin: 1 })
    const done = await importing(code, { categories: ['instagram'] })
    expect(done.created.map((c: any) => [c.code, c.cost, c.price])).toEqual([
      ['2', 0.00035, 2],
      ['1', 0.0009, 2],
    ])
    expect(await item(done.created[1].id)).toMatchObject({
      min_margin: 1,
      name: 'Instagram Followers',
      product_name: 'Instagram',
      order_process: 'smm',
      min_order: 10,
      max_order: 10_000,
      provider_code: '1',
    })
  })

  it('refuses a request without a selector, and a provider it does not know', async () => {
    const { code } = await digiflazz()
    const none = await call('POST', `/providers/${code}/import`, { dry_run: true })
    expect(none.statusCode).toBe(422)
    expect(none.json().errors.codes[0]).toMatch(/at least one/)
    expect((await call('POST', `/providers/${code}/import`, { codes: [] })).statusCode).toBe(422)
    expect((await call('POST', '/providers/nobody/import', { codes: ['x'] })).statusCode).toBe(404)
  })
})

describe('pricing rules', () => {
  it('price by the most specific rule: item > brand > category > provider, each change repricing at once', async () => {
    const { code } = await digiflazz()
    const { created } = await importing(code, { categories: ['Games'] })
    const [ff, ml86, ml172] = created.map((c: any) => c.id)
    const prices = async () => Promise.all([ff, ml86, ml172].map(async (id) => (await item(id)).price))
    // The floor margin each keeps (docs/design.md §11c): its rule's, null with none (the store's).
    const margins = async () => Promise.all([ff, ml86, ml172].map(async (id) => (await item(id)).min_margin))
    expect(await prices()).toEqual([18_200, 19_500, 38_900])
    expect(await margins()).toEqual([null, null, null])

    const provider = await setRule({ scope: 'provider', provider: code, percent: 10, round_to: 100, min_margin: 50 })
    expect(provider).toMatchObject({ created: true, repriced: 3 })
    expect(await prices()).toEqual([20_100, 21_500, 42_800])
    expect(await margins()).toEqual([50, 50, 50])
    expect((await setRule({ scope: 'category', provider: code, category: 'games', percent: 5, round_to: 50 })).repriced).toBe(3)
    expect(await prices()).toEqual([19_150, 20_500, 40_850])
    const brand = await setRule({ scope: 'brand', provider: code, brand: 'MOBILE LEGENDS', percent: 2, flat: 100, round_to: 1 })
    expect(await prices()).toEqual([19_150, 19_990, 39_778])
    await setRule({ scope: 'item', item_id: ml86, percent: 0, round_to: 1000, min_margin: 1_000 })
    expect(await prices()).toEqual([19_150, 21_000, 39_778])
    expect(await margins()).toEqual([0, 1_000, 0])

    // The same key again changes that rule's terms; a name's case does not make a new one.
    const changed = await setRule({ scope: 'brand', provider: code, brand: 'mobile legends', percent: 3, round_to: 1 })
    expect(changed).toMatchObject({ created: false, rule: { id: brand.rule.id, brand: 'MOBILE LEGENDS', percent: 3 } })
    expect(await prices()).toEqual([19_150, 21_000, 40_067])

    const rules = await admin(app, 'GET', '/pricing-rules')
    expect(rules.filter((r: any) => r.provider === code).map((r: any) => r.scope)).toEqual(['provider', 'category', 'brand'])
    const itemRule = rules.find((r: any) => r.item_id === ml86)
    const deleted = await call('DELETE', `/pricing-rules/${itemRule.id}`)
    expect(deleted.json().data.repriced).toBe(1)
    expect(await prices()).toEqual([19_150, 20_085, 40_067])
    expect(await margins()).toEqual([0, 0, 0])
    expect((await call('DELETE', `/pricing-rules/${itemRule.id}`)).statusCode).toBe(404)
  })

  it('refuses a rule whose key does not fit its scope, or names what does not exist', async () => {
    const { code } = await digiflazz()
    const refused = async (body: object) => {
      const res = await call('PUT', '/pricing-rules', { percent: 1, ...body })
      expect(res.statusCode, res.body).toBe(422)
      return res.json().errors
    }
    expect(await refused({ scope: 'brand', provider: code })).toEqual({ brand: ['is required for a brand rule'] })
    expect(await refused({ scope: 'category', provider: code, category: 'Games', brand: 'X' })).toEqual({
      brand: ['does not belong to a category rule; leave it out'],
    })
    expect(Object.keys(await refused({ scope: 'item', item_id: 1, provider: code }))).toEqual(['provider'])
    expect(Object.keys(await refused({ scope: 'provider', provider: 'nobody' }))).toEqual(['provider'])
    expect(Object.keys(await refused({ scope: 'item', item_id: 999_999 }))).toEqual(['item_id'])
    expect(Object.keys(await refused({ scope: 'provider', provider: code, round_to: 10 }))).toContain('round_to')
    expect(Object.keys(await refused({ scope: 'provider', provider: code, percent: -1 }))).toContain('percent')
  })
})

const variantsOf = (body: any): any[] => body.data.flatMap((c: any) => c.products.flatMap((p: any) => p.variants))
/** Deltas from `since` until one shows the item as wanted (catalog-snapshot.test.ts: wait for the state, not the item). */
async function deltaUntil(since: string, id: number, wanted: (v: any) => boolean) {
  return eventually(
    `item ${id} as wanted in a delta`,
    async () => {
      const delta = (await get(app, `/item?per_page=all&updated_since=${encodeURIComponent(since)}`, reseller)).json()
      since = delta.server_time
      return variantsOf(delta).find((v) => v.id === id)
    },
    (found) => found !== undefined && wanted(found),
  )
}

describe('reprice on sync', () => {
  it('a changed supplier price reprices the linked item, and the resellers’ delta shows it; a locked price stays', async () => {
    const { code, prepaid } = await digiflazz()
    await setRule({ scope: 'provider', provider: code, percent: 10, round_to: 100 })
    const { created } = await importing(code, { codes: ['ml86', 'ml172'] })
    const [ml86, ml172] = created.map((c: any) => c.id)
    expect(created.map((c: any) => c.price)).toEqual([21_500, 42_800])
    // The operator types a price for ml172: it locks.
    expect(await admin(app, 'PATCH', `/items/${ml172}`, { price: 45_000 })).toMatchObject({ price: 45_000, price_locked: true })
    const before = await item(ml86)
    const listing = (await get(app, '/item?per_page=all', reseller)).json()

    prepaid.change('ml86', { price: 20_000 })
    prepaid.change('ml172', { price: 40_000 })
    expect(await sync(code)).toMatchObject({ changes: { price: 2 } })
    const after = await item(ml86)
    expect(after).toMatchObject({ cost: 20_000, price: 22_000 })
    expect(after.updated_at > before.updated_at).toBe(true)
    expect(await item(ml172)).toMatchObject({ cost: 40_000, price: 45_000, price_locked: true })
    expect((await deltaUntil(listing.server_time, ml86, (v) => v.price === 22_000))?.price).toBe(22_000)

    // Unlocked, it takes its rule's price at once.
    expect(await admin(app, 'PATCH', `/items/${ml172}`, { price_locked: false })).toMatchObject({ price: 44_000, price_locked: false })
    // A sync that changes nothing writes nothing.
    const unchanged = await item(ml86)
    await sync(code)
    expect((await item(ml86)).updated_at).toBe(unchanged.updated_at)
  })

  it('an item whose source goes off is costed at its next serving source', async () => {
    const { code, prepaid } = await digiflazz()
    const { created } = await importing(code, { codes: ['tsel10', 'tsel25'] })
    const [tsel10, tsel25] = created.map((c: any) => c.id)
    // A second source for tsel10 (another helper's route manages these; the table is enough here).
    await ctx.db.insertInto('item_sources').values({ item_id: tsel10, provider: code, code: 'tsel25', priority: 2 }).execute()
    prepaid.change('tsel10', { seller_product_status: false })
    await sync(code)
    expect(await item(tsel10)).toMatchObject({ cost: 24_900, price: 24_900 })
    prepaid.change('tsel10', { seller_product_status: true })
    await sync(code)
    expect(await item(tsel10)).toMatchObject({ cost: 10_150, price: 24_900 })
    expect((await item(tsel25)).cost).toBe(24_900)

    // A provider switched off hands its items to their next source at another provider.
    const other = await digiflazz()
    other.prepaid.change('tsel10', { price: 10_400 })
    await sync(other.code)
    await ctx.db.insertInto('item_sources').values({ item_id: tsel10, provider: other.code, code: 'tsel10', priority: 3 }).execute()
    await admin(app, 'PATCH', `/providers/${code}`, { active: false })
    expect((await item(tsel10)).cost).toBe(10_400)
    await admin(app, 'PATCH', `/providers/${code}`, { active: true })
    expect((await item(tsel10)).cost).toBe(10_150)
  })

  it('commits the list and the prices it moves together: a failed reprice leaves the previous list and prices', async () => {
    const { code, prepaid } = await digiflazz()
    const { created } = await importing(code, { codes: ['ff140', 'pln20'] })
    const [ff140, pln20] = created.map((c: any) => c.id)
    prepaid.change('ff140', { price: 18_300 })
    prepaid.change('pln20', { price: 20_250 })
    // The database refuses pln20's new cost: as if the process died in the middle of the reprice.
    await sql`CREATE FUNCTION refuse_pln20() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.id = ${sql.lit(pln20)} THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$`.execute(ctx.db)
    await sql`CREATE TRIGGER refuse_pln20 BEFORE UPDATE ON items FOR EACH ROW EXECUTE FUNCTION refuse_pln20()`.execute(ctx.db)
    try {
      expect((await call('POST', `/providers/${code}/sync?force=true`)).statusCode).toBe(500)
    } finally {
      await sql`DROP TRIGGER refuse_pln20 ON items`.execute(ctx.db)
      await sql`DROP FUNCTION refuse_pln20()`.execute(ctx.db)
    }
    const listed = await admin(app, 'GET', `/providers/${code}/products?search=ff140`)
    expect(listed[0].price).toBe(18_200)
    expect(await item(ff140)).toMatchObject({ cost: 18_200, price: 18_200 })
    await sync(code)
    expect(await item(ff140)).toMatchObject({ cost: 18_300, price: 18_300 })
    expect(await item(pln20)).toMatchObject({ cost: 20_250, price: 20_250 })
  })
})
