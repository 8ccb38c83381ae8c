import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createItem, createReseller, get } from '../../../test/factory.js'

const { app, ctx } = await createTestApp()

const auth = { authorization: 'Bearer test-admin-token-0123456789' }
const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  app.inject({ method, url: `/api/admin/v1${url}`, headers: auth, payload })

let sent = 0
const nextAddress = () => `10.9.${(++sent >> 8) & 255}.${sent & 255}`

describe('operator authentication', () => {
  // Taken from the OpenAPI document, so a route added later is covered without touching this list.
  const routes = Object.entries((app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths)
    .filter(([path]) => path.startsWith('/api/admin/v1/'))
    .flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => [method.toUpperCase(), path.replace('{code}', 'sim').replace(/\{\w+\}/g, '1')] as const),
    )

  it('knows the operator routes', () => {
    expect(routes.length).toBeGreaterThanOrEqual(13)
    expect(routes).toContainEqual(['POST', '/api/admin/v1/resellers/1/balance'])
    expect(routes).toContainEqual(['PATCH', '/api/admin/v1/providers/sim'])
  })

  it.each([
    ['no header', undefined],
    ['a wrong token', 'Bearer test-admin-token-0123456780'],
    ['a longer token', 'Bearer test-admin-token-0123456789x'],
    ['another scheme', 'Basic test-admin-token-0123456789'],
    ['a bare token', 'test-admin-token-0123456789'],
  ])('answers 401 UNAUTHORIZED on every route with %s', async (_label, authorization) => {
    for (const [method, url] of routes) {
      const res = await app.inject({
        method,
        url,
        // Each from an address of its own: past AUTH_FAILURES_PER_MINUTE one address is answered 429 (http/auth.test.ts).
        remoteAddress: nextAddress(),
        headers: authorization ? { authorization } : {},
        payload: method === 'GET' ? undefined : {},
      })
      expect(res.statusCode, `${method} ${url}`).toBe(401)
      expect(res.json()).toEqual({ message: 'UNAUTHORIZED' })
    }
    // Nothing was created by the refused calls.
    const accounts = await ctx.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    expect(accounts.n).toBe(0)
  })
})

describe('accounts', () => {
  it('answers the API key once, on creation only', async () => {
    const res = await call('POST', '/resellers', { name: 'Shop A', email: 'a@example.com' })
    expect(res.statusCode).toBe(200)
    const created = res.json().data
    expect(created).toMatchObject({
      id: expect.any(Number),
      name: 'Shop A',
      email: 'a@example.com',
      status: 'active',
      balance: 0,
      ip_allowlist: [],
      max_active_locks: null,
    })
    expect(created.api_key).toMatch(/^rk_[\w-]{43}$/)
    const one = await call('GET', `/resellers/${created.id}`)
    expect(one.json().data).toEqual(Object.fromEntries(Object.entries(created).filter(([k]) => k !== 'api_key')))
    expect(one.body).not.toContain(created.api_key)
    expect((await call('GET', '/resellers')).body).not.toContain(created.api_key.slice(3))
    // Only a hash is stored.
    const stored = await ctx.db.selectFrom('api_keys').selectAll().where('account_id', '=', created.id).execute()
    expect(stored).toHaveLength(1)
    expect(JSON.stringify(stored)).not.toContain(created.api_key.slice(3))
  })

  it('validates the body and answers 404 for an unknown account', async () => {
    const bad = await call('POST', '/resellers', { name: '', email: 'not-an-email' })
    expect(bad.statusCode).toBe(422)
    expect(Object.keys(bad.json().errors).sort()).toEqual(['email', 'name'])
    const missing = await call('PATCH', '/resellers/999999', { status: 'suspended' })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toEqual({ message: 'ACCOUNT_NOT_FOUND' })
    expect((await call('GET', '/resellers/999999')).json()).toEqual({ message: 'ACCOUNT_NOT_FOUND' })
  })
})

describe('items', () => {
  it('creates an item of each order_process', async () => {
    await admin(app, 'POST', '/providers', { code: 'dgf', kind: 'digiflazz', base_url: 'https://api.digiflazz.com/v1' })
    const auto = await admin(app, 'POST', '/items', {
      product_name: 'Steam',
      name: 'Steam 60k',
      price: 61_500,
      order_process: 'auto',
      category: 'Games',
    })
    expect(auto).toMatchObject({
      order_process: 'auto',
      stock: 0,
      unlimited_stock: false,
      active: true,
      category: 'Games',
      product_name: 'Steam',
      sku: expect.stringMatching(/^SKU-/),
    })
    const h2h = await admin(app, 'POST', '/items', {
      product_name: 'Pulsa',
      name: 'Tsel 10k',
      price: 10_850,
      order_process: 'h2h',
      unlimited_stock: true,
      provider: 'dgf',
      provider_code: 'tsel10',
    })
    expect(h2h).toMatchObject({
      order_process: 'h2h',
      stock: null,
      unlimited_stock: true,
      h2h_provider: 'dgf',
      provider_code: 'tsel10',
      category: 'Uncategorized',
    })
    const smm = await admin(app, 'POST', '/items', {
      product_name: 'IG',
      name: 'Followers',
      price: 15_000,
      order_process: 'smm',
      stock: 40,
      min_order: 10,
      max_order: 100,
    })
    expect(smm).toMatchObject({ order_process: 'smm', stock: 40, min_order: 10, max_order: 100 })
    const manual = await admin(app, 'POST', '/items', {
      product_name: 'Netflix',
      name: '1 Month',
      price: 45_000,
      order_process: 'manual',
      stock: 20,
      active: false,
    })
    expect(manual).toMatchObject({ order_process: 'manual', stock: 20, active: false })
    expect(await admin(app, 'GET', `/items/${manual.id}`)).toEqual(manual)
  })

  it.each([
    [{ order_process: 'auto', stock: 5 }, 'stock'],
    [{ order_process: 'auto', unlimited_stock: true }, 'unlimited_stock'],
    [{ order_process: 'h2h', provider: 'no-such-provider' }, 'provider'],
    [{ order_process: 'manual', min_order: 5, max_order: 2 }, 'max_order'],
    [{ order_process: 'teleport' }, 'order_process'],
  ])('refuses %j with 422 on %s', async (body, field) => {
    const res = await call('POST', '/items', { product_name: 'P', name: 'N', price: 1, ...body })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toEqual({ message: 'VALIDATION_ERROR', errors: { [field]: [expect.any(String)] } })
  })

  it('refuses a duplicate sku, also under concurrent creation', async () => {
    await createItem(app, { sku: 'DUP-1' })
    const again = await call('POST', '/items', { product_name: 'P', name: 'N', price: 1, order_process: 'manual', sku: 'DUP-1' })
    expect(again.statusCode).toBe(422)
    expect(again.json()).toEqual({ message: 'VALIDATION_ERROR', errors: { sku: ['is already used by another item'] } })
    // A PATCH onto a taken sku, and racing creations that all pass the clash check, end at the UNIQUE index.
    const other = await createItem(app, { order_process: 'manual' })
    expect((await call('PATCH', `/items/${other.id}`, { sku: 'DUP-1' })).json()).toEqual(again.json())
    for (let round = 0; round < 3; round++) {
      const race = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          call('POST', '/items', { product_name: `Race ${i}`, name: 'N', price: 1, order_process: 'manual', sku: `DUP-RACE-${round}` }),
        ),
      )
      expect(race.map((r) => r.statusCode).sort()).toEqual([200, 422, 422, 422, 422, 422, 422, 422])
    }
  })

  it('changes price and activity; auto stock rules hold on PATCH too', async () => {
    const item = await createItem(app, { price: 1000 })
    expect(await admin(app, 'PATCH', `/items/${item.id}`, { price: 2500 })).toMatchObject({ id: item.id, price: 2500, active: true })
    expect((await admin(app, 'PATCH', `/items/${item.id}`, { active: false })).active).toBe(false)
    const r = await createReseller(app)
    expect((await get(app, `/item/${item.id}`, r)).json()).toEqual({ message: 'ITEM_NOT_FOUND' })
    expect((await admin(app, 'PATCH', `/items/${item.id}`, { active: true })).price).toBe(2500)
    expect((await get(app, `/item/${item.id}`, r)).json().data.price).toBe(2500)

    const stock = await call('PATCH', `/items/${item.id}`, { stock: 3 })
    expect(stock.statusCode).toBe(422)
    expect(stock.json().errors).toHaveProperty('stock')
    expect((await call('PATCH', '/items/999999', { price: 1 })).json()).toEqual({ message: 'ITEM_NOT_FOUND' })
  })
})

describe('licenses', () => {
  it('counts a repeated license once, within a batch and across batches', async () => {
    const item = await createItem(app)
    const first = await admin(app, 'POST', `/items/${item.id}/licenses`, { licenses: ['AAA-1', 'BBB-2', 'AAA-1', ' BBB-2 '] })
    expect(first).toEqual({ item_id: item.id, added: 2, duplicates: 2 })
    expect((await admin(app, 'GET', `/items/${item.id}`)).stock).toBe(2)
    const second = await admin(app, 'POST', `/items/${item.id}/licenses`, { licenses: ['BBB-2', 'CCC-3'] })
    expect(second).toEqual({ item_id: item.id, added: 1, duplicates: 1 })
    expect((await admin(app, 'GET', `/items/${item.id}`)).stock).toBe(3)
    // A voucher is unique in the whole store: another item cannot stock it again.
    const other = await createItem(app)
    expect(await admin(app, 'POST', `/items/${other.id}/licenses`, { licenses: ['AAA-1', 'DDD-4'] })).toEqual({
      item_id: other.id,
      added: 1,
      duplicates: 1,
    })
  })

  it('refuses licenses for a non-auto item, a blank one and an unknown item', async () => {
    const manual = await createItem(app, { order_process: 'manual', stock: 1 })
    const res = await call('POST', `/items/${manual.id}/licenses`, { licenses: ['X-1'] })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toEqual({ message: 'VALIDATION_ERROR', errors: { licenses: ['only auto items hold licenses'] } })
    const auto = await createItem(app)
    const blank = await call('POST', `/items/${auto.id}/licenses`, { licenses: ['ok', '   '] })
    expect(blank.json()).toEqual({ message: 'VALIDATION_ERROR', errors: { 'licenses.1': ['must not be blank'] } })
    expect((await admin(app, 'GET', `/items/${auto.id}`)).stock).toBe(0)
    expect((await call('POST', '/items/999999/licenses', { licenses: ['X'] })).json()).toEqual({ message: 'ITEM_NOT_FOUND' })
  })

  it('stores a license encrypted under APP_KEY', async () => {
    const item = await createItem(app)
    const plain = 'STEAM-PLAIN-TEXT-7731'
    await admin(app, 'POST', `/items/${item.id}/licenses`, { licenses: [plain] })
    const row = await ctx.db.selectFrom('licenses').selectAll().where('item_id', '=', item.id).executeTakeFirstOrThrow()
    expect(row.content_enc).not.toContain(plain)
    expect(row.fingerprint).not.toContain(plain)
    expect(row.content_enc).toMatch(/^v1\./)
    expect(ctx.vault.decrypt(row.content_enc)).toBe(plain)
    expect(row.status).toBe('available')
  })
})

describe('providers', () => {
  it('creates, refuses a duplicate code, changes, and never shows the api_key', async () => {
    const body = {
      code: 'panel-1',
      kind: 'smm_panel',
      base_url: 'https://panel.example/api/v2/',
      username: 'me',
      api_key: 'PANEL-SECRET-KEY-42',
    }
    const created = await call('POST', '/providers', body)
    expect(created.statusCode).toBe(200)
    expect(created.json().data).toEqual({
      code: 'panel-1',
      kind: 'smm_panel',
      base_url: 'https://panel.example/api/v2',
      username: 'me',
      has_api_key: true,
      active: true,
      balance_alert_below: null,
      balance_alert_hours: null,
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    })
    const duplicate = await call('POST', '/providers', { ...body, kind: 'digiflazz' })
    expect(duplicate.statusCode).toBe(409)
    expect(duplicate.json()).toEqual({ message: 'DUPLICATE' })

    const changed = await admin(app, 'PATCH', '/providers/panel-1', { base_url: 'https://other.example/api/v2', active: false })
    expect(changed).toMatchObject({
      code: 'panel-1',
      kind: 'smm_panel',
      base_url: 'https://other.example/api/v2',
      active: false,
      has_api_key: true,
    })
    expect((await admin(app, 'PATCH', '/providers/panel-1', { api_key: null })).has_api_key).toBe(false)
    await admin(app, 'PATCH', '/providers/panel-1', { api_key: 'PANEL-SECRET-KEY-43' })

    const list = await call('GET', '/providers')
    expect(list.body).not.toContain('PANEL-SECRET')
    expect(list.json().data.find((p: any) => p.code === 'panel-1')).toMatchObject({ has_api_key: true, active: false })
    expect(list.json().data.every((p: any) => !('api_key' in p) && !('api_key_enc' in p))).toBe(true)
    const stored = await ctx.db.selectFrom('providers').select('api_key_enc').where('code', '=', 'panel-1').executeTakeFirstOrThrow()
    expect(ctx.vault.decrypt(stored.api_key_enc!)).toBe('PANEL-SECRET-KEY-43')

    expect((await call('PATCH', '/providers/nope', { active: true })).json()).toEqual({ message: 'PROVIDER_NOT_FOUND' })
    expect((await call('POST', '/providers', { ...body, code: 'Bad Code!' })).json().errors).toHaveProperty('code')
  })
})
