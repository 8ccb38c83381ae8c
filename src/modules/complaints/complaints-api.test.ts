import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createItem, createReseller, get, type Reseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { inTransaction } from '../../db/database.js'
import { lockComplaint, recordStep } from './complaints.queries.js'

// The window is measured on ctx.clock: a test moves it forward, never the orders back.
let offsetMs = 0
const clock = { now: () => new Date(Date.now() + offsetMs) }
const { app, ctx } = await createTestApp({}, {}, { clock })
const DAY_MS = 24 * 60 * 60 * 1000

const open = (r: Reseller, ref: string, payload: object) =>
  app.inject({ method: 'POST', url: `/api/v1/trx/${ref}/complaints`, headers: r.headers, payload })
const reply = (r: Reseller, id: number, message: string) =>
  app.inject({ method: 'POST', url: `/api/v1/complaints/${id}/messages`, headers: r.headers, payload: { message } })

let refs = 0
/** A reseller's order of one manual line (it stays `pending` until sent) and that line's order_item_id. */
async function orderOfOne(r: Reseller) {
  const item = await createItem(app, { order_process: 'manual', stock: 5, price: 15_000 })
  const ref = `cmp-${++refs}`
  const created = (await buy(app, r, ref, [{ item_id: item.id, quantity: 1 }])).json().data
  const lineId: string = (await get(app, `/trx/${ref}`, r)).json().data.items[0].order_item_id
  return { ref, id: created.id as number, invoice: created.invoice as string, lineId }
}

/** An operator's step, as the operator API will take it (it is built apart): through the complaints' queries. */
const operatorStep = (id: number, action: 'reply' | 'reject', status: 'answered' | 'closed', body: string) =>
  inTransaction(ctx.db, async (trx) => {
    await lockComplaint(trx, id)
    await recordStep(trx, id, {
      author: 'operator',
      authorName: 'op',
      action,
      body,
      status,
      resolution: status === 'closed' ? 'rejected' : undefined,
    })
  })

describe('opening a complaint', () => {
  it('answers 201 with the complaint and its first message; order_item_id comes from the retrieval, as a string or an integer', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const order = await orderOfOne(r)
    expect(order.lineId).toMatch(/^\d+$/)
    const res = await open(r, order.ref, { order_item_id: order.lineId, reason: 'not_received', message: '  Nothing arrived.  ' })
    expect(res.statusCode, res.body).toBe(201)
    const c = res.json().data
    expect(c).toMatchObject({
      ref_id: order.ref,
      invoice: order.invoice,
      order_item_id: order.lineId,
      reason: 'not_received',
      status: 'open',
      resolution: null,
      refunded_amount: 0,
      closed_at: null,
      messages: [{ author: 'reseller', action: 'open', message: 'Nothing arrived.' }],
    })
    expect(Object.keys(c).sort()).toEqual(
      [
        'closed_at',
        'created_at',
        'id',
        'invoice',
        'messages',
        'order_item_id',
        'reason',
        'ref_id',
        'refunded_amount',
        'resolution',
        'status',
        'updated_at',
      ].sort(),
    )
    // The API signs its messages as the API; operators read that name.
    const stored = await ctx.db.selectFrom('complaint_messages').select('author_name').where('complaint_id', '=', c.id).execute()
    expect(stored).toEqual([{ author_name: 'api' }])

    const other = await orderOfOne(r)
    const byInvoice = await open(r, other.invoice, { order_item_id: Number(other.lineId), reason: 'other', message: 'x' })
    expect(byInvoice.statusCode, byInvoice.body).toBe(201)
    expect(byInvoice.json().data).toMatchObject({ ref_id: other.ref, order_item_id: other.lineId })
  })

  it('refuses what it cannot take, naming the field or the thing not found', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const stranger = await createReseller(app, { balance: 100_000 })
    const mine = await orderOfOne(r)
    const theirs = await orderOfOne(stranger)
    const body = { order_item_id: mine.lineId, reason: 'invalid_code', message: 'bad' }
    const cases: [string, object, number, string, string?][] = [
      ['nope-404', body, 404, 'TRX_NOT_FOUND'],
      [theirs.ref, { ...body, order_item_id: theirs.lineId }, 404, 'TRX_NOT_FOUND'],
      [mine.ref, { ...body, order_item_id: theirs.lineId }, 422, 'VALIDATION_ERROR', 'order_item_id'],
      [mine.ref, { ...body, order_item_id: 'abc' }, 422, 'VALIDATION_ERROR', 'order_item_id'],
      [mine.ref, { ...body, order_item_id: 0 }, 422, 'VALIDATION_ERROR', 'order_item_id'],
      [mine.ref, { ...body, reason: 'angry' }, 422, 'VALIDATION_ERROR', 'reason'],
      [mine.ref, { ...body, message: '   ' }, 422, 'VALIDATION_ERROR', 'message'],
      [mine.ref, { ...body, message: 'x'.repeat(2001) }, 422, 'VALIDATION_ERROR', 'message'],
      [mine.ref, { order_item_id: mine.lineId, reason: 'other' }, 422, 'VALIDATION_ERROR', 'message'],
    ]
    for (const [ref, payload, status, code, field] of cases) {
      const res = await open(r, ref, payload)
      expect(res.statusCode, `${ref} ${JSON.stringify(payload).slice(0, 80)}: ${res.body}`).toBe(status)
      expect(res.json().message).toBe(code)
      if (field) expect(Object.keys(res.json().errors)).toContain(field)
    }
    expect(await ctx.db.selectFrom('complaints').select('id').where('account_id', '=', r.id).execute()).toEqual([])
    expect((await open(r, mine.ref, { ...body, message: 'x'.repeat(2000) })).statusCode).toBe(201)
  })

  it('takes one open complaint per line, also when two arrive at once', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const order = await orderOfOne(r)
    const body = { order_item_id: order.lineId, reason: 'not_received', message: 'where is it?' }
    const both = await Promise.all([open(r, order.ref, body), open(r, order.ref, body)])
    expect(both.map((res) => res.statusCode).sort()).toEqual([201, 422])
    const refused = both.find((res) => res.statusCode === 422)!.json()
    expect(refused).toMatchObject({ message: 'COMPLAINT_ALREADY_OPEN', errors: { order_item_id: [expect.any(String)] } })
    const again = await open(r, order.ref, body)
    expect(again.json().message).toBe('COMPLAINT_ALREADY_OPEN')

    // Once closed, the line takes a new one.
    const first = both.find((res) => res.statusCode === 201)!.json().data
    await operatorStep(first.id, 'reject', 'closed', 'Delivered on time, see the seller note.')
    expect((await open(r, order.ref, body)).statusCode).toBe(201)
  })

  it('refuses a line given back and an order outside COMPLAINT_DAYS', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const canceled = await orderOfOne(r)
    await admin(app, 'POST', `/transactions/${canceled.id}/cancel`, { reason: 'test' })
    const refused = await open(r, canceled.ref, { order_item_id: canceled.lineId, reason: 'other', message: 'x' })
    expect(refused.statusCode).toBe(422)
    expect(refused.json()).toMatchObject({ message: 'COMPLAINT_NOT_ALLOWED', errors: { order_item_id: [expect.any(String)] } })

    const old = await orderOfOne(r)
    const body = { order_item_id: old.lineId, reason: 'other', message: 'x' }
    try {
      offsetMs = 7 * DAY_MS + 60_000
      const late = await open(r, old.ref, body)
      expect(late.statusCode).toBe(422)
      expect(late.json()).toMatchObject({
        message: 'COMPLAINT_NOT_ALLOWED',
        errors: { order_item_id: [expect.stringContaining('7 days')] },
      })
      offsetMs = 7 * DAY_MS - 60_000
      expect((await open(r, old.ref, body)).statusCode).toBe(201)
    } finally {
      offsetMs = 0
    }
  })

  it('COMPLAINT_DAYS=0 takes none', async () => {
    const closedWindow = await createTestApp({ COMPLAINT_DAYS: '0' })
    const r = await createReseller(closedWindow.app, { balance: 100_000 })
    const item = await createItem(closedWindow.app, { order_process: 'manual', stock: 1, price: 1_000 })
    await buy(closedWindow.app, r, 'zero-1', [{ item_id: item.id, quantity: 1 }])
    const lineId = (await get(closedWindow.app, '/trx/zero-1', r)).json().data.items[0].order_item_id
    const res = await closedWindow.app.inject({
      method: 'POST',
      url: '/api/v1/trx/zero-1/complaints',
      headers: r.headers,
      payload: { order_item_id: lineId, reason: 'other', message: 'x' },
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().message).toBe('COMPLAINT_NOT_ALLOWED')
  })
})

describe('reading and replying', () => {
  it('a thread: open → the store answers → the reseller writes (open again) → closed, which takes no message', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const order = await orderOfOne(r)
    const c = (await open(r, order.ref, { order_item_id: order.lineId, reason: 'wrong_item', message: 'Got the 50K one.' })).json().data

    await operatorStep(c.id, 'reply', 'answered', 'Which account did you top up?')
    const answered = (await get(app, `/complaints/${c.id}`, r)).json().data
    expect(answered.status).toBe('answered')
    expect(answered.messages.map((m: { author: string; action: string }) => `${m.author} ${m.action}`)).toEqual([
      'reseller open',
      'operator reply',
    ])
    // An operator's name stays inside.
    expect(answered.messages[1]).not.toHaveProperty('author_name')

    const written = await reply(r, c.id, ' The one ending 4321. ')
    expect(written.statusCode, written.body).toBe(200)
    expect(written.json().data).toMatchObject({
      status: 'open',
      messages: [{}, {}, { author: 'reseller', message: 'The one ending 4321.' }],
    })

    await operatorStep(c.id, 'reject', 'closed', 'The item matches the order.')
    const closed = (await get(app, `/trx/${order.ref}/complaints`, r)).json().data
    expect(closed).toHaveLength(1)
    expect(closed[0]).toMatchObject({ id: c.id, status: 'closed', resolution: 'rejected', closed_at: expect.any(String) })
    expect(closed[0].messages).toHaveLength(4)
    const late = await reply(r, c.id, 'But…')
    expect(late.statusCode).toBe(422)
    expect(late.json().message).toBe('COMPLAINT_NOT_ALLOWED')
    expect((await reply(r, c.id, '   ')).json()).toMatchObject({ message: 'VALIDATION_ERROR', errors: { message: [expect.any(String)] } })
  })

  it("another account's complaint is not found, and neither is its order's list", async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const stranger = await createReseller(app, { balance: 100_000 })
    const order = await orderOfOne(r)
    const c = (await open(r, order.ref, { order_item_id: order.lineId, reason: 'other', message: 'mine' })).json().data
    for (const res of [
      await get(app, `/complaints/${c.id}`, stranger),
      await reply(stranger, c.id, 'theirs'),
      await get(app, '/complaints/999999999', r),
    ]) {
      expect(res.statusCode).toBe(404)
      expect(res.json().message).toBe('COMPLAINT_NOT_FOUND')
    }
    const theirList = await get(app, `/trx/${order.ref}/complaints`, stranger)
    expect(theirList.statusCode).toBe(404)
    expect(theirList.json().message).toBe('TRX_NOT_FOUND')
    expect((await get(app, '/complaints', stranger)).json().data).toEqual([])
    expect((await get(app, `/complaints/${c.id}`, r)).json().data.messages).toHaveLength(1)
  })

  it('GET /complaints: newest first, by status, paged', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const ids: number[] = []
    for (let i = 0; i < 3; i++) {
      const order = await orderOfOne(r)
      ids.push((await open(r, order.ref, { order_item_id: order.lineId, reason: 'other', message: `n${i}` })).json().data.id)
    }
    await operatorStep(ids[0]!, 'reply', 'answered', 'looking')
    const all = (await get(app, '/complaints', r)).json()
    expect(all.data.map((c: { id: number }) => c.id)).toEqual([...ids].reverse())
    expect(all.meta).toMatchObject({ page: 1, per_page: 20, total: 3, last_page: 1, next_cursor: null })
    expect(all.data[0]).not.toHaveProperty('messages')
    const answered = (await get(app, '/complaints?status=answered', r)).json()
    expect(answered.data.map((c: { id: number; status: string }) => [c.id, c.status])).toEqual([[ids[0], 'answered']])
    const page2 = (await get(app, '/complaints?per_page=2&page=2', r)).json()
    expect(page2.data.map((c: { id: number }) => c.id)).toEqual([ids[0]])
    expect(page2.meta).toMatchObject({ total: 3, last_page: 2 })
    const first = (await get(app, '/complaints?per_page=2', r)).json()
    const next = (await get(app, `/complaints?per_page=2&cursor=${first.meta.next_cursor}`, r)).json()
    expect(next.data.map((c: { id: number }) => c.id)).toEqual([ids[0]])
    expect((await get(app, '/complaints?status=pending', r)).json().message).toBe('VALIDATION_ERROR')
  })
})
