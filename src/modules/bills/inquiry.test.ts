import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createItem, createReseller, get } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { freePort } from '../../../test/server-process.js'
import { addSimulatedProvider, addSimulatedProviders, startUpstreams } from '../../../test/upstreams.js'

// docs/design.md §5c's inquiry against the Digiflazz simulator over real HTTP (a listener on 127.0.0.1).
// The timeout is generous: a busy machine's simulator must never read as a provider that hangs.
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000' })
const up = await startUpstreams()
afterAll(() => up.close())

await addSimulatedProviders(app, up, { panel: false })
// Nothing listens there: a provider that cannot be reached.
await admin(app, 'POST', '/providers', {
  code: 'gone',
  kind: 'digiflazz',
  base_url: `http://127.0.0.1:${await freePort()}/v1`,
  username: 'demo',
  api_key: 'demo-key',
})
const postpaid = { order_process: 'h2h', price: 2_500, unlimited_stock: true, provider_meta: { postpaid: true } }
const pln = await createItem(app, { ...postpaid, provider: 'dgf', provider_code: 'pln', name: 'PLN Pascabayar' })
const unreachable = await createItem(app, { ...postpaid, provider: 'gone', provider_code: 'pln' })
const prepaid = await createItem(app, {
  order_process: 'h2h',
  price: 10_000,
  unlimited_stock: true,
  provider: 'dgf',
  provider_code: 'pln20',
})
const r = await createReseller(app, { balance: 1_000_000 })

const inquire = (body: object) => app.inject({ method: 'POST', url: '/api/v1/trx/tagihan/inquiry', headers: r.headers, payload: body })
const inquiries = (customerNo: string) => up.digiflazz.requests.filter((q) => q.customer_no === customerNo)

describe('POST /v1/trx/tagihan/inquiry', () => {
  it('answers the bill with our admin fee per bill, keeps it 15 minutes, and asks inq-pasca under a ref of its own', async () => {
    const res = await inquire({ item_id: pln.id, customer_id: ' 530000000001 ' })
    expect(res.statusCode, res.body).toBe(200)
    const { data } = res.json()
    const [asked] = inquiries('530000000001')
    expect(asked).toEqual({
      commands: 'inq-pasca',
      ref_id: expect.stringMatching(/^INQ\d{8}[A-Z0-9]{8}$/),
      customer_no: '530000000001',
      buyer_sku_code: 'pln',
    })
    const period = up.digiflazz.bills.get(asked.ref_id)!.periods[0].periode
    expect(data).toEqual({
      inquiry_id: expect.any(Number),
      item_id: pln.id,
      customer_id: '530000000001',
      customer_name: 'PELANGGAN 0001',
      period,
      bill_count: 1,
      bill_amount: 150_000,
      admin_fee: 2_500,
      penalty: 0,
      amount: 152_500,
      expires_at: expect.stringMatching(/Z$/),
      details: [{ period, bill_amount: 150_000, admin: 2_500, penalty: 0 }],
    })
    const lives = new Date(data.expires_at).getTime() - Date.now()
    expect(lives).toBeGreaterThan(14 * 60_000)
    expect(lives).toBeLessThanOrEqual(15 * 60_000)
    const row = await ctx.db.selectFrom('bill_inquiries').selectAll().where('id', '=', data.inquiry_id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ account_id: r.id, upstream_ref: asked.ref_id, order_line_id: null, provider_price: 152_000 })
    // An inquiry charges nothing.
    expect((await get(app, '/balance', r)).json().data.balance).toBe(1_000_000)
  })

  it('two bills: one line each, the late fee apart, the admin fee per bill', async () => {
    const { data } = (await inquire({ item_id: pln.id, customer_id: '530000000004' })).json()
    expect(data).toMatchObject({ bill_count: 2, bill_amount: 270_000, penalty: 5_000, admin_fee: 5_000, amount: 280_000 })
    expect(data.details).toEqual([
      { period: expect.stringMatching(/^\d{6}$/), bill_amount: 120_000, admin: 2_500, penalty: 5_000 },
      { period: expect.stringMatching(/^\d{6}$/), bill_amount: 150_000, admin: 2_500, penalty: 0 },
    ])
    expect(data.period).toBe(data.details.map((d: { period: string }) => d.period).join(', '))
  })

  it('no bill (rc 60) is BILL_NOT_AVAILABLE on customer_id; a wrong number a VALIDATION_ERROR on customer_id; nothing is stored', async () => {
    const before = await ctx.db
      .selectFrom('bill_inquiries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    const none = await inquire({ item_id: pln.id, customer_id: '530000000005' })
    expect(none.statusCode).toBe(422)
    expect(none.json()).toEqual({
      message: 'BILL_NOT_AVAILABLE',
      errors: { customer_id: ['has no bill to pay now (Tagihan belum tersedia): it is paid already, or not issued yet'] },
    })
    const wrong = await inquire({ item_id: pln.id, customer_id: '530000000006' })
    expect(wrong.statusCode).toBe(422)
    expect(wrong.json()).toEqual({
      message: 'VALIDATION_ERROR',
      errors: { customer_id: ['is not a customer number this provider knows (Nomor Tujuan Salah): check it'] },
    })
    const blank = await inquire({ item_id: pln.id, customer_id: '   ' })
    expect(blank.json()).toMatchObject({
      message: 'VALIDATION_ERROR',
      errors: { customer_id: [expect.stringContaining('must not be blank')] },
    })
    const after = await ctx.db
      .selectFrom('bill_inquiries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))
  })

  it('an unreachable provider is a 503; an item that is no bill, or none at all, is refused before any call', async () => {
    const down = await inquire({ item_id: unreachable.id, customer_id: '530000000001' })
    expect(down.statusCode).toBe(503)
    expect(down.json().message).toBe('SERVICE_UNAVAILABLE')
    const asked = up.digiflazz.requests.length
    const notBill = await inquire({ item_id: prepaid.id, customer_id: '530000000001' })
    expect(notBill.statusCode).toBe(422)
    expect(notBill.json()).toEqual({
      message: 'VALIDATION_ERROR',
      errors: { item_id: ['is not a postpaid item: buy it through POST /api/v1/trx'] },
    })
    const missing = await inquire({ item_id: 987_654_321, customer_id: '530000000001' })
    expect([missing.statusCode, missing.json().message]).toEqual([404, 'ITEM_NOT_FOUND'])
    expect(up.digiflazz.requests.length).toBe(asked)
  })

  it('a switched-off provider answers PRODUCT_TEMPORARILY_UNAVAILABLE', async () => {
    await addSimulatedProvider(app, up, 'digiflazz', 'dgf-off')
    const item = await createItem(app, { ...postpaid, provider: 'dgf-off', provider_code: 'pln' })
    await admin(app, 'PATCH', '/providers/dgf-off', { active: false })
    const res = await inquire({ item_id: item.id, customer_id: '530000000001' })
    expect([res.statusCode, res.json().message]).toEqual([503, 'PRODUCT_TEMPORARILY_UNAVAILABLE'])
  })
})

describe('a postpaid item elsewhere', () => {
  it('the catalog marks it postpaid and asks for the customer number', async () => {
    const variant = (await get(app, `/item/${pln.id}`, r)).json().data
    expect(variant).toMatchObject({ postpaid: true, order_process: 'h2h', price: 2_500 })
    expect(variant.required_fields).toEqual([{ key: 'customer_id', label: expect.any(String), required: true }])
    expect((await get(app, `/item/${prepaid.id}`, r)).json().data.postpaid).toBe(false)
  })

  it('POST /v1/trx refuses it on its line, whatever the note, and stores nothing', async () => {
    const res = await buy(app, r, 'bill-by-trx', [
      { item_id: prepaid.id, quantity: 1, note: '081234567891' },
      { item_id: pln.id, quantity: 1, note: '530000000001' },
    ])
    expect(res.statusCode).toBe(422)
    expect(res.json()).toEqual({
      message: 'VALIDATION_ERROR',
      errors: { 'carts.1.item_id': ['a postpaid item is paid through POST /v1/trx/tagihan'] },
    })
    const noNote = await buy(app, r, 'bill-by-trx', [{ item_id: pln.id, quantity: 2 }])
    expect(noNote.json().errors).toEqual({ 'carts.0.item_id': ['a postpaid item is paid through POST /v1/trx/tagihan'] })
    expect((await get(app, '/trx/bill-by-trx', r)).statusCode).toBe(404)
  })

  it('the sandbox takes it without asking the provider: the admin fee, one bill', async () => {
    const asked = up.digiflazz.requests.length
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/order/sandbox',
      headers: r.headers,
      payload: { ref_id: 'bill-sandbox', item_id: pln.id, quantity: 1, note: '530000000001' },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().data.status).toBe('sandbox')
    expect((await get(app, '/trx/bill-sandbox', r)).json().data).toMatchObject({ status: 'sandbox', amount: 2_500 })
    const two = await app.inject({
      method: 'POST',
      url: '/api/v1/order/sandbox',
      headers: r.headers,
      payload: { ref_id: 'bill-sandbox-2', item_id: pln.id, quantity: 2, note: '530000000001' },
    })
    expect(two.json()).toEqual({
      message: 'VALIDATION_ERROR',
      errors: { quantity: ['must be 1 for a postpaid bill: one payment per inquiry'] },
    })
    expect(up.digiflazz.requests.length).toBe(asked)
  })
})

describe('the floor on a bill (docs/design.md §11c)', () => {
  const refused = (id?: number) =>
    ctx.db
      .selectFrom('bill_inquiries')
      .select(['item_id', 'customer_no', 'amount', 'provider_price', 'floor_refused'])
      .where('floor_refused', '=', true)
      .$if(id !== undefined, (q) => q.where('item_id', '=', id!))
      .execute()

  it('a bill the provider charges more for than it would be paid is 503, kept refused for Margin watch, and not payable', async () => {
    // …8: a bill of 100,000 for which the provider asks 110,000; our admin fee makes it 102,500.
    const res = await inquire({ item_id: pln.id, customer_id: '530000000008' })
    expect(res.statusCode, res.body).toBe(503)
    expect(res.json()).toEqual({
      message: 'PRODUCT_TEMPORARILY_UNAVAILABLE',
      errors: { item_id: [expect.stringContaining('the provider charges more for this bill')] },
    })
    expect(await refused(pln.id)).toEqual([
      { item_id: pln.id, customer_no: '530000000008', amount: 102_500, provider_price: 110_000, floor_refused: true },
    ])
    const row = await ctx.db.selectFrom('bill_inquiries').select('id').where('customer_no', '=', '530000000008').executeTakeFirstOrThrow()
    const before = (await get(app, '/balance', r)).json().data.balance
    const pay = await app.inject({
      method: 'POST',
      url: '/api/v1/trx/tagihan',
      headers: r.headers,
      payload: { ref_id: 'floor-1', item_id: pln.id, customer_id: '530000000008', inquiry_id: row.id },
    })
    expect([pay.statusCode, pay.json().message, Object.keys(pay.json().errors)]).toEqual([
      503,
      'PRODUCT_TEMPORARILY_UNAVAILABLE',
      ['inquiry_id'],
    ])
    expect((await get(app, '/balance', r)).json().data.balance).toBe(before)
    expect(await ctx.db.selectFrom('orders').select('id').where('ref_id', '=', 'floor-1').execute()).toEqual([])
  })

  it('the floor margin counts: a bill 500 above its price is refused when the item keeps 1,000', async () => {
    const item = await createItem(app, { ...postpaid, provider: 'dgf', provider_code: 'pln' })
    await sql`UPDATE items SET min_margin = 1000 WHERE id = ${item.id}`.execute(ctx.db)
    const res = await inquire({ item_id: item.id, customer_id: '530000000011' })
    expect([res.statusCode, res.json().message]).toEqual([503, 'PRODUCT_TEMPORARILY_UNAVAILABLE'])
    expect(await refused(item.id)).toEqual([
      { item_id: item.id, customer_no: '530000000011', amount: 152_500, provider_price: 152_000, floor_refused: true },
    ])
  })

  it('an item that allows a loss answers the bill, payable', async () => {
    const item = await createItem(app, { ...postpaid, provider: 'dgf', provider_code: 'pln' })
    await sql`UPDATE items SET allow_loss = true WHERE id = ${item.id}`.execute(ctx.db)
    const res = await inquire({ item_id: item.id, customer_id: '530000000018' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().data).toMatchObject({ amount: 102_500 })
    expect(await refused(item.id)).toEqual([])
  })
})
