import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../test/app.js'
import { admin, createAutoItem, createItem, createReseller, get } from '../../test/factory.js'
import { balanceOf } from '../../test/factory-orders.js'

// docs/design.md §3: reseller bodies take an integer also as a string of decimal digits and a note
// also as a number (what PHP integrations send); anything else stays a 422 naming the field, and the
// operator API stays strict.
const { app } = await createTestApp()
const r = await createReseller(app, { balance: 1_000_000 })
const auto = await createAutoItem(app, 20, { price: 1_000 })
const manual = await createItem(app, { order_process: 'manual', stock: 50, price: 500 })
await admin(app, 'POST', '/channels', {
  code: 'BCA',
  name: 'Transfer BCA',
  type: 'bank_transfer',
  bank: 'BCA',
  account_number: '8830012345',
  account_name: 'PT Toko Contoh',
})

const post = (url: string, payload: object, headers: Record<string, string> = r.headers) =>
  app.inject({ method: 'POST', url, headers, payload })
const fieldsOf = (res: { json(): any }) => Object.keys(res.json().errors ?? {}).sort()

describe('integers as digits, notes as numbers (reseller API)', () => {
  it('POST /v1/trx takes item_id, quantity and max_price as digits and a note as a number', async () => {
    const res = await post('/api/v1/trx', {
      ref_id: 'digits-1',
      carts: [
        { item_id: String(auto.id), quantity: '2', max_price: '100000' },
        { item_id: manual.id, quantity: '1', note: 81234567890 },
      ],
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().data.amount).toBe(2_500)
    const order = (await get(app, '/trx/digits-1', r)).json().data
    expect(order.items.map((l: { quantity: number }) => l.quantity)).toEqual([2, 1])
    expect(order.items[1]).toMatchObject({ note: '81234567890', buyer_note: '81234567890' })
    expect(await balanceOf(app, r)).toBe(997_500)
  })

  it.each([
    ['"4.5"', { quantity: '4.5' }, 'carts.0.quantity'],
    ['"abc"', { quantity: 'abc' }, 'carts.0.quantity'],
    ['" 4"', { quantity: ' 4' }, 'carts.0.quantity'],
    ['"-1"', { quantity: '-1' }, 'carts.0.quantity'],
    ['"0"', { quantity: '0' }, 'carts.0.quantity'],
    ['over the maximum', { quantity: '1000001' }, 'carts.0.quantity'],
    ['a negative max_price', { quantity: 1, max_price: '-5' }, 'carts.0.max_price'],
    ['max_price over the money bound', { quantity: 1, max_price: '10000000000000000' }, 'carts.0.max_price'],
    ['a 400-digit item_id', { quantity: 1, item_id: '9'.repeat(400) }, 'carts.0.item_id'],
    ['an empty string', { quantity: '' }, 'carts.0.quantity'],
  ])('POST /v1/trx refuses %s with 422 naming the field, charging nothing', async (_label, line, field) => {
    const before = await balanceOf(app, r)
    const res = await post('/api/v1/trx', { ref_id: `bad-${field}-${Math.random()}`, carts: [{ item_id: auto.id, ...line }] })
    expect(res.statusCode, res.body).toBe(422)
    expect(res.json().message).toBe('VALIDATION_ERROR')
    expect(fieldsOf(res)).toEqual([field])
    expect(await balanceOf(app, r)).toBe(before)
  })

  it('says what to send for a string that is no digits', async () => {
    const res = await post('/api/v1/trx', { ref_id: 'bad-words', carts: [{ item_id: auto.id, quantity: '4.5' }] })
    expect(res.json().errors['carts.0.quantity']).toEqual([
      'must be an integer, or must be a string of decimal digits (no sign, point or spaces)',
    ])
  })

  it('the sandbox, locks, top-ups, validation and complaints take digits too', async () => {
    const sandbox = await post('/api/v1/order/sandbox', { ref_id: 'sb-digits', item_id: String(auto.id), quantity: '3', note: 42 })
    expect(sandbox.statusCode, sandbox.body).toBe(200)
    expect((await get(app, '/trx/sb-digits', r)).json().data.items[0].quantity).toBe(3)

    const lock = await post('/api/v1/item/lock', { item_id: String(auto.id), quantity: '1', lock_duration: '60' })
    expect(lock.statusCode, lock.body).toBe(201)
    expect(lock.json().data).toMatchObject({ item_id: auto.id, quantity: 1 })
    const { locked_at, expires_at } = lock.json().data
    expect(Date.parse(expires_at) - Date.parse(locked_at)).toBe(60_000)
    const badLock = await post('/api/v1/item/lock', { item_id: auto.id, quantity: '1', lock_duration: '59' })
    expect([badLock.statusCode, fieldsOf(badLock)]).toEqual([422, ['lock_duration']])

    const topup = await post('/api/v1/balance', { amount: '100000', channel: 'BCA' })
    expect(topup.statusCode, topup.body).toBe(200)
    expect(topup.json().data.amount).toBe(100_000)
    const badTopup = await post('/api/v1/balance', { amount: '100000.00', channel: 'BCA' })
    expect([badTopup.statusCode, fieldsOf(badTopup)]).toEqual([422, ['amount']])

    // An item without validation: past the schema (digits taken), refused by what the item offers.
    const validate = await post('/api/v1/item/validate', { item_id: String(auto.id), customer_id: 12345678 })
    expect(validate.json().message).toBe('VALIDATION_NOT_AVAILABLE')
    const badValidate = await post('/api/v1/item/validate', { item_id: 'x1', customer_id: '1' })
    expect([badValidate.statusCode, fieldsOf(badValidate)]).toEqual([422, ['item_id']])

    const bill = await post('/api/v1/trx/tagihan/inquiry', { item_id: '1e3', customer_id: 5300000001 })
    expect([bill.statusCode, fieldsOf(bill)]).toEqual([422, ['item_id']])
    // The fuzzer's find: a number token beyond a double is no note's text ("Infinity").
    const infinite = await app.inject({
      method: 'POST',
      url: '/api/v1/trx/tagihan/inquiry',
      headers: { ...r.headers, 'content-type': 'application/json' },
      payload: `{"item_id":${auto.id},"customer_id":1e400}`,
    })
    expect([infinite.statusCode, fieldsOf(infinite)]).toEqual([422, ['customer_id']])

    const order = (await get(app, '/trx/digits-1', r)).json().data
    const complaint = await post(`/api/v1/trx/digits-1/complaints`, {
      order_item_id: order.items[0].order_item_id,
      reason: 'other',
      message: 'digits',
    })
    expect(complaint.statusCode, complaint.body).toBe(201)
    const badComplaint = await post(`/api/v1/trx/digits-1/complaints`, { order_item_id: '-1', reason: 'other', message: 'x' })
    expect([badComplaint.statusCode, fieldsOf(badComplaint)]).toEqual([422, ['order_item_id']])
  })

  it('the operator API stays strict', async () => {
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}` }
    const res = await post(`/api/admin/v1/resellers/${r.id}/balance`, { amount: '5000', reason: 'typed' }, headers)
    expect([res.statusCode, fieldsOf(res)]).toEqual([422, ['amount']])
  })
})
