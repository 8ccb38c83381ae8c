import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { admin } from '../../../test/factory.js'
import { freePort } from '../../../test/server-process.js'
import { addSimulatedProvider, startUpstreams, type Upstreams } from '../../../test/upstreams.js'
import { prepaidEntry } from '../../providers/digiflazz-price-list.simulator.js'
import { allWorkers } from '../../workers/index.js'

// The sync against the simulators over real HTTP; each test registers its own provider on a fresh
// simulator, so one test's steering never reaches another's list.
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000' })
const opened: Upstreams[] = []
afterAll(() => Promise.all(opened.map((up) => up.close())))

let providers = 0
async function digiflazz() {
  const up = await startUpstreams()
  opened.push(up)
  const code = `dgf-${++providers}`
  await addSimulatedProvider(app, up, 'digiflazz', code)
  return { up, code, prepaid: up.digiflazz.priceLists.prepaid, pasca: up.digiflazz.priceLists.pasca }
}
async function panel() {
  const up = await startUpstreams()
  opened.push(up)
  const code = `panel-${++providers}`
  await addSimulatedProvider(app, up, 'smm_panel', code)
  return { up, code, services: up.smm.services }
}

const call = (method: 'GET' | 'POST', url: string) =>
  app.inject({ method, url: `/api/admin/v1${url}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
const sync = (code: string, force = true) => admin(app, 'POST', `/providers/${code}/sync${force ? '?force=true' : ''}`)
const products = (code: string, query = '') => admin(app, 'GET', `/providers/${code}/products?per_page=500${query}`)
const changes = async (code: string) =>
  (
    await admin<{ code: string; kind: string; old: string | null; new: string | null }[]>(
      app,
      'GET',
      `/providers/${code}/changes?per_page=500`,
    )
  ).map((c) => `${c.kind} ${c.code} ${c.old ?? '-'}→${c.new ?? '-'}`)
const product = async (code: string, sku: string) => (await products(code)).find((p: { code: string }) => p.code === sku)

describe('POST /providers/{code}/sync (Digiflazz /price-list)', () => {
  it('records every product of both lists as new on the first sync, signed as the protocol says', async () => {
    const { code } = await digiflazz()
    const first = await sync(code, false)
    expect(first).toMatchObject({
      status: 'ok',
      cached: false,
      listed: 9,
      skipped: 0,
      changes: { new: 9, price: 0, status: 0, gone: 0, back: 0 },
    })
    const rows = await products(code)
    expect(rows.map((p: { code: string }) => p.code).sort()).toEqual([
      'bpjs',
      'dana50',
      'ff140',
      'ml172',
      'ml86',
      'pln',
      'pln20',
      'tsel10',
      'tsel25',
    ])
    expect(rows.find((p: { code: string }) => p.code === 'ml86')).toMatchObject({
      name: 'MOBILE LEGENDS 86 Diamonds',
      category: 'Games',
      brand: 'MOBILE LEGENDS',
      price: 19_500,
      active: true,
      postpaid: false,
      cut_off_start: null,
      gone_at: null,
    })
    // A postpaid product's price is its admin fee.
    expect(rows.find((p: { code: string }) => p.code === 'pln')).toMatchObject({ postpaid: true, price: 2_500 })
    expect((await changes(code)).filter((c) => c.startsWith('new ')).length).toBe(9)
  })

  it('filters products by status, category, brand and search', async () => {
    const { code, prepaid } = await digiflazz()
    prepaid.change('tsel25', { buyer_product_status: false })
    await sync(code)
    const codes = async (query: string) => (await products(code, query)).map((p: { code: string }) => p.code).sort()
    expect(await codes('&status=inactive')).toEqual(['tsel25'])
    expect(await codes('&category=games')).toEqual(['ff140', 'ml172', 'ml86'])
    expect(await codes('&brand=TELKOMSEL&status=active')).toEqual(['tsel10'])
    expect(await codes('&search=diamonds')).toEqual(['ff140', 'ml172', 'ml86'])
    expect(await codes('&search=%25')).toEqual([])
    const page = await call('GET', `/providers/${code}/products?per_page=2&page=2`)
    expect(page.json().meta).toEqual({ page: 2, per_page: 2, total: 9, last_page: 5 })
    expect((await call('GET', `/providers/${code}/products?status=sold`)).statusCode).toBe(422)
  })

  it('logs a price change, a product off, a product gone and back each once; cut-off hours are kept', async () => {
    const { code, prepaid } = await digiflazz()
    await sync(code)
    prepaid.change('ml86', { price: 19_750 })
    prepaid.change('tsel10', { seller_product_status: false })
    prepaid.change('dana50', { start_cut_off: '23:45', end_cut_off: '0:15' })
    prepaid.remove('ff140')
    expect(await sync(code)).toMatchObject({ listed: 8, changes: { new: 0, price: 1, status: 1, gone: 1, back: 0 } })
    // Read again unchanged: nothing more is logged.
    expect(await sync(code)).toMatchObject({ listed: 8, changes: { new: 0, price: 0, status: 0, gone: 0, back: 0 } })
    expect((await product(code, 'ff140')).gone_at).not.toBeNull()
    expect(await product(code, 'dana50')).toMatchObject({ cut_off_start: '23:45', cut_off_end: '00:15' })
    expect(await product(code, 'tsel10')).toMatchObject({ active: false })

    prepaid.restore('ff140')
    prepaid.change('tsel10', { seller_product_status: true })
    expect(await sync(code)).toMatchObject({ listed: 9, changes: { new: 0, price: 0, status: 1, gone: 0, back: 1 } })
    expect(await product(code, 'ff140')).toMatchObject({ gone_at: null, price: 18_200 })
    const log = await changes(code)
    expect(log.slice(0, 5)).toEqual([
      'back ff140 -→18200',
      'status tsel10 off→on',
      'gone ff140 18200→-',
      'status tsel10 on→off',
      'price ml86 19500→19750',
    ])
    expect(log.length).toBe(9 + 5)
  })

  it('answers the last sync within SUPPLIER_SYNC_MINUTES without asking the provider; force asks', async () => {
    const { code, prepaid, pasca } = await digiflazz()
    const first = await sync(code, false)
    expect([prepaid.reads, pasca.reads]).toEqual([1, 1])
    prepaid.change('ml86', { price: 25_000 })
    const again = await sync(code, false)
    expect(again).toEqual({ ...first, cached: true })
    expect([prepaid.reads, pasca.reads]).toEqual([1, 1])
    expect((await product(code, 'ml86')).price).toBe(19_500)
    const forced = await sync(code, true)
    expect(forced).toMatchObject({ cached: false, changes: { price: 1 } })
    expect(forced.id).toBeGreaterThan(first.id)
    expect([prepaid.reads, pasca.reads]).toEqual([2, 2])
  })

  it('keeps the previous list when the provider answers an error, and says why with a 503', async () => {
    const { code, prepaid, pasca } = await digiflazz()
    await sync(code)
    const before = await products(code)
    prepaid.change('ml86', { price: 1 })
    pasca.fail('Limitasi pengecekan pricelist')
    const res = await call('POST', `/providers/${code}/sync?force=true`)
    expect(res.statusCode).toBe(503)
    const body = res.json()
    expect(body.message).toBe('SERVICE_UNAVAILABLE')
    expect(body.errors.provider[0]).toContain('rc 83 Limitasi pengecekan pricelist')
    expect(body.errors.provider[0]).toContain('the previous list is kept')
    // The prepaid list was read whole, but without pasca nothing of it is applied.
    expect(await products(code)).toEqual(before)
    expect((await changes(code)).length).toBe(9)
    expect(body.data).toBeUndefined()
    const recorded = await ctx.db
      .selectFrom('supplier_syncs')
      .select(['id', 'status', 'error'])
      .where('provider', '=', code)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(body.errors.provider[0]).toMatch(new RegExp(`^sync ${recorded.id}: `))
    expect(recorded.status).toBe('failed')
    expect(recorded.error).toContain('pasca list: provider answered HTTP 400: rc 83')
  })

  it('keeps the previous list when the provider is unreachable or answers an empty list', async () => {
    const { code, up, prepaid, pasca } = await digiflazz()
    await sync(code)
    const before = await products(code)
    for (const sku of ['ml86', 'ml172', 'ff140', 'tsel10', 'tsel25', 'pln20', 'dana50']) prepaid.remove(sku)
    for (const sku of ['pln', 'bpjs']) pasca.remove(sku)
    const empty = await call('POST', `/providers/${code}/sync?force=true`)
    expect(empty.statusCode).toBe(503)
    expect(empty.json().errors.provider[0]).toContain('empty list')
    await admin(app, 'PATCH', `/providers/${code}`, { base_url: `http://127.0.0.1:${await freePort()}/v1` })
    const unreachable = await call('POST', `/providers/${code}/sync?force=true`)
    expect(unreachable.statusCode).toBe(503)
    expect(unreachable.json().errors.provider[0]).toContain('provider unreachable')
    expect(await products(code)).toEqual(before)
    expect(up.digiflazz.requests).toEqual([])
  })

  it('answers 404 for a provider that does not exist, 409 for one without a key', async () => {
    for (const [method, path] of [
      ['POST', '/providers/nope/sync'],
      ['GET', '/providers/nope/products'],
      ['GET', '/providers/nope/changes'],
    ] as const) {
      const res = await call(method, path)
      expect(res.statusCode, path).toBe(404)
      expect(res.json().message).toBe('PROVIDER_NOT_FOUND')
    }
    await admin(app, 'POST', '/providers', { code: 'keyless', kind: 'digiflazz', base_url: 'http://127.0.0.1:9/v1' })
    const res = await call('POST', '/providers/keyless/sync')
    expect(res.statusCode).toBe(409)
    expect(res.json().errors.provider[0]).toContain('no API key')
  })
})

describe('a list is applied whole or not at all', () => {
  it('leaves the previous list when applying fails after a first batch of rows was written', async () => {
    const { code, prepaid } = await digiflazz()
    await sync(code)
    const before = await products(code)
    const entry = (sku: string) => prepaidEntry(sku, `Bulk ${sku}`, 'Bulk', 'BULK', 1000)
    for (let i = 0; i < 600; i++) prepaid.add(entry(`bulk${i}`))
    prepaid.add(entry('boom'))
    // The database refuses the last row, in the list's second batch: as if the process died there.
    await sql`CREATE FUNCTION refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.code = 'boom' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$`.execute(ctx.db)
    await sql`CREATE TRIGGER refuse_boom BEFORE INSERT ON supplier_products FOR EACH ROW EXECUTE FUNCTION refuse_boom()`.execute(ctx.db)
    try {
      expect((await call('POST', `/providers/${code}/sync?force=true`)).statusCode).toBe(500)
    } finally {
      await sql`DROP TRIGGER refuse_boom ON supplier_products`.execute(ctx.db)
      await sql`DROP FUNCTION refuse_boom()`.execute(ctx.db)
    }
    expect(await products(code)).toEqual(before)
    expect((await changes(code)).length).toBe(9)
    const last = await ctx.db
      .selectFrom('supplier_syncs')
      .select(['status', 'error'])
      .where('provider', '=', code)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(last).toMatchObject({ status: 'failed', error: expect.stringContaining('boom') })
    expect(await sync(code)).toMatchObject({ listed: 9 + 601, changes: { new: 601 } })
  })

  it('stores an entry whose text holds a NUL character without it', async () => {
    const { code, prepaid } = await digiflazz()
    prepaid.change('ml86', { product_name: `ML${String.fromCharCode(0)} 86`, desc: `a${String.fromCharCode(0)}b` })
    await sync(code)
    expect((await product(code, 'ml86')).name).toBe('ML 86')
  })
})

describe('one process syncs a provider at a time', () => {
  it('refuses a sync while another runs, and takes over a claim left by a process that stopped', async () => {
    const { code, prepaid } = await digiflazz()
    const running = await ctx.db
      .insertInto('supplier_syncs')
      .values({ provider: code, status: 'running' })
      .returning('id')
      .executeTakeFirstOrThrow()
    const busy = await call('POST', `/providers/${code}/sync?force=true`)
    expect(busy.statusCode).toBe(409)
    expect(busy.json().errors.provider[0]).toContain('running now')
    expect(prepaid.reads).toBe(0)
    // The claimant died an hour ago.
    await sql`UPDATE supplier_syncs SET started_at = now() - interval '1 hour' WHERE id = ${running.id}`.execute(ctx.db)
    expect(await sync(code)).toMatchObject({ status: 'ok', changes: { new: 9 } })
    const left = await ctx.db
      .selectFrom('supplier_syncs')
      .select(['status', 'error'])
      .where('id', '=', running.id)
      .executeTakeFirstOrThrow()
    expect(left).toMatchObject({ status: 'failed', error: expect.stringContaining('abandoned') })
  })
})

describe('action=services (SMM panel v2)', () => {
  it('reads the rates per 1,000 with min and max, and logs a rate change and a service gone', async () => {
    const { code, services } = await panel()
    expect(await sync(code)).toMatchObject({ listed: 3, changes: { new: 3 } })
    expect(await product(code, '1')).toMatchObject({
      name: 'Instagram Followers',
      category: 'Instagram',
      price: 0.9,
      min_quantity: 10,
      max_quantity: 10_000,
    })
    services.change('1', { rate: '1.10' })
    services.remove('3')
    expect(await sync(code)).toMatchObject({ listed: 2, changes: { price: 1, gone: 1 } })
    expect((await changes(code)).slice(0, 2).sort()).toEqual(['gone 3 0.02→-', 'price 1 0.9→1.1'])
    services.fail('Service temporarily unavailable', 500)
    const res = await call('POST', `/providers/${code}/sync?force=true`)
    expect(res.statusCode).toBe(503)
    expect(res.json().errors.provider[0]).toContain('HTTP 500: Service temporarily unavailable')
  })
})

describe('the supplier sync worker', () => {
  it('syncs every active provider once per interval', async () => {
    const own = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000' })
    const up = await startUpstreams()
    opened.push(up)
    await admin(own.app, 'POST', '/providers', {
      code: 'w-dgf',
      kind: 'digiflazz',
      base_url: `${up.base}/digiflazz/v1`,
      username: 'demo',
      api_key: 'demo-key',
    })
    await admin(own.app, 'POST', '/providers', {
      code: 'w-panel',
      kind: 'smm_panel',
      base_url: `${up.base}/smm/api/v2`,
      api_key: 'demo-key',
    })
    await admin(own.app, 'POST', '/providers', {
      code: 'w-off',
      kind: 'smm_panel',
      base_url: `${up.base}/smm/api/v2`,
      api_key: 'demo-key',
      active: false,
    })
    const worker = allWorkers(own.ctx).find((w) => w.name === 'supplier-sync')!
    expect(worker.intervalMs).toBe(15 * 60_000)
    const synced = (await worker.runOnce()) as { provider: string; status: string }[]
    expect(synced.map((s) => `${s.provider} ${s.status}`)).toEqual(['w-dgf ok', 'w-panel ok'])
    expect([up.digiflazz.priceLists.prepaid.reads, up.smm.services.reads]).toEqual([1, 1])
    expect(await worker.runOnce()).toEqual([])
    expect([up.digiflazz.priceLists.prepaid.reads, up.smm.services.reads]).toEqual([1, 1])
  })
})
