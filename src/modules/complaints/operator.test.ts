import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { admin, createAutoItem, createItem, createReseller, get, type Reseller } from '../../../test/factory.js'
import { balanceOf, buy, stockOf } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'
import { operatorWithToken } from '../../../test/team.js'
import { addSimulatedProviders, startUpstreams } from '../../../test/upstreams.js'
import { openComplaint } from './complaints.service.js'

// The operator's side of complaints (docs/design.md §14) through the admin API, against the simulators.
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000' })
const up = await startUpstreams()
afterAll(() => up.close())
await addSimulatedProviders(app, up)
const h2h = await createItem(app, { order_process: 'h2h', price: 10_000, unlimited_stock: true, provider: 'dgf', provider_code: 'ml86' })
const smm = await createItem(app, { order_process: 'smm', price: 333, unlimited_stock: true, provider: 'panel', provider_code: '7' })
const manual = await createItem(app, { order_process: 'manual', stock: 50, price: 20_000 })
const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` }

const call = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = adminHeaders) =>
  app.inject({ method, url: `/api/admin/v1${url}`, headers, payload })

/** A bought order's first line id. */
async function bought(r: Reseller, ref: string, cart: { item_id: number; quantity: number; note?: string }) {
  const res = await buy(app, r, ref, [cart])
  expect(res.statusCode, res.body).toBe(200)
  const order = res.json().data
  return { orderId: order.id as number, lineId: (await admin(app, 'GET', `/transactions/${order.id}`)).items[0].id as number }
}

async function complain(r: Reseller, ref: string, lineId: number, reason: 'invalid_code' | 'not_received' = 'not_received') {
  const body = { order_item_id: lineId, reason, message: 'it did not arrive' }
  return (await openComplaint(ctx.db, { now: new Date(), days: 7 }, r.id, ref, body, { name: 'api' })).id
}

async function manualSent(r: Reseller, ref: string) {
  const { orderId, lineId } = await bought(r, ref, { item_id: manual.id, quantity: 1, note: 'buyer@example.com' })
  await admin(app, 'POST', `/transactions/${orderId}/items/${lineId}/send`, { product_license: `code-${ref}` })
  return { orderId, lineId, complaint: await complain(r, ref, lineId, 'invalid_code') }
}

const dispatch = () => ctx.fulfilment.upstream.runOnce()
async function poll() {
  await sql`UPDATE dispatches SET next_attempt_at = now() WHERE status IN ('pending', 'queued')`.execute(ctx.db)
  await ctx.fulfilment.upstream.runOnce()
  await ctx.fulfilment.smmPoller.runOnce()
}

describe('refunds', () => {
  it('ten concurrent refunds of one complaint credit the line once; balance = ledger', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const { complaint } = await manualSent(r, 'op-ref-10')
    const results = await Promise.all(Array.from({ length: 10 }, () => call('POST', `/complaints/${complaint}/refund`)))
    expect(results.map((x) => x.statusCode).sort()).toEqual([200, ...Array(9).fill(422)])
    for (const refused of results.filter((x) => x.statusCode === 422)) expect(refused.json().message).toBe('COMPLAINT_NOT_ALLOWED')
    expect(await balanceOf(app, r)).toBe(100_000)
    const entries = await ctx.db
      .selectFrom('ledger_entries')
      .select(['amount', 'reference'])
      .where('type', '=', 'refund')
      .where('account_id', '=', r.id)
      .execute()
    expect(entries).toEqual([{ amount: 20_000, reference: `complaint:${complaint}` }])
    const c = (await call('GET', `/complaints/${complaint}`)).json().data
    expect(c).toMatchObject({ status: 'closed', resolution: 'refunded', refunded_amount: 20_000, line: { status: 'refunded' } })
    expect(c.messages.at(-1)).toMatchObject({ author: 'operator', author_name: 'admin token', action: 'refund' })
    await assertInvariants(ctx.db)
  })

  it('after an smm partial, pays only what is left of the subtotal', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    const note = JSON.stringify({ target: 'https://instagram.com/cp4', comment_smm: 'hi' })
    const { lineId } = await bought(r, 'op-smm-partial', { item_id: smm.id, quantity: 7, note })
    await dispatch()
    await poll()
    // remains floor(7 × 0.4) = 2: the panel's partial gave back floor(2331 × 2 / 7) = 666.
    expect(await balanceOf(app, r)).toBe(50_000 - 2_331 + 666)
    const complaint = await complain(r, 'op-smm-partial', lineId)
    const res = await call('POST', `/complaints/${complaint}/refund`, { message: 'the rest, refunded' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().data).toMatchObject({ refunded_amount: 2_331 - 666, line: { refunded_amount: 2_331, status: 'refunded' } })
    expect(await balanceOf(app, r)).toBe(50_000)
    await assertInvariants(ctx.db)
  })

  it('refuses a line still in flight upstream (422), and support (403); finance may', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    // …3: pending on the first look, so the line is still processing.
    const { lineId } = await bought(r, 'op-inflight', { item_id: h2h.id, quantity: 1, note: '081200000003' })
    await dispatch()
    const complaint = await complain(r, 'op-inflight', lineId)
    const early = await call('POST', `/complaints/${complaint}/refund`)
    expect(early.statusCode, early.body).toBe(422)
    expect(early.json()).toMatchObject({
      message: 'COMPLAINT_NOT_ALLOWED',
      errors: { order_item_id: [expect.stringContaining('in flight')] },
    })
    await poll()
    const support = await operatorWithToken(ctx, 'support')
    const refused = await call('POST', `/complaints/${complaint}/refund`, {}, support.headers)
    expect(refused.statusCode).toBe(403)
    expect(refused.json().message).toBe('FORBIDDEN_FOR_ROLE')
    const finance = await operatorWithToken(ctx, 'finance')
    const done = await call('POST', `/complaints/${complaint}/refund`, {}, finance.headers)
    expect(done.statusCode, done.body).toBe(200)
    expect(done.json().data.messages.at(-1)).toMatchObject({ author_name: finance.email, action: 'refund' })
    expect(await balanceOf(app, r)).toBe(50_000)
    await assertInvariants(ctx.db)
  })
})

describe('re-check', () => {
  it('asks Digiflazz by the same ref_id (no new transaction) and closes resolved with the SN', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    const { lineId } = await bought(r, 'op-recheck-h2h', { item_id: h2h.id, quantity: 1, note: '081200000001' })
    await dispatch()
    const complaint = await complain(r, 'op-recheck-h2h', lineId)
    const [transactions, requests] = [up.digiflazz.transactions.size, up.digiflazz.requests.length]
    const res = await call('POST', `/complaints/${complaint}/recheck`)
    expect(res.statusCode, res.body).toBe(200)
    expect(up.digiflazz.transactions.size).toBe(transactions)
    expect(up.digiflazz.requests.length).toBe(requests + 1)
    const data = res.json().data
    expect(data).toMatchObject({ status: 'closed', resolution: 'resolved', line: { upstream: { status: 'completed' } } })
    expect(data.messages.at(-1).message).toContain(data.line.upstream.sn)
  })

  it('asks an SMM panel for status (no new order); an auto line has nothing upstream (422)', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    const { lineId } = await bought(r, 'op-recheck-smm', { item_id: smm.id, quantity: 10, note: 'https://instagram.com/cp1' })
    await dispatch()
    const complaint = await complain(r, 'op-recheck-smm', lineId)
    const adds = up.smm.adds.length
    const res = await call('POST', `/complaints/${complaint}/recheck`)
    expect(res.statusCode, res.body).toBe(200)
    expect(up.smm.adds.length).toBe(adds)
    expect(res.json().data).toMatchObject({ status: 'closed', resolution: 'resolved' })

    const auto = await createAutoItem(app, 1)
    const line = await bought(r, 'op-recheck-auto', { item_id: auto.id, quantity: 1 })
    const other = await complain(r, 'op-recheck-auto', line.lineId)
    const refused = await call('POST', `/complaints/${other}/recheck`)
    expect(refused.statusCode).toBe(422)
    expect(refused.json().message).toBe('COMPLAINT_NOT_ALLOWED')
  })
})

describe('resend', () => {
  it('auto: the old license turns void (not back in stock), a new one is delivered by order.item.sent', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    const auto = await createAutoItem(app, 2)
    const { orderId, lineId } = await bought(r, 'op-resend', { item_id: auto.id, quantity: 1 })
    const before = (await get(app, '/trx/op-resend', r)).json().data.items[0].product_license as string
    expect(await stockOf(app, r, auto.id)).toBe(1)
    const complaint = await complain(r, 'op-resend', lineId, 'invalid_code')
    const res = await call('POST', `/complaints/${complaint}/resend`, { mode: 'auto' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().data).toMatchObject({ status: 'closed', resolution: 'resent' })
    // The new license came out of stock; the void one did not go back.
    expect(await stockOf(app, r, auto.id)).toBe(0)
    const after = (await get(app, '/trx/op-resend', r)).json().data.items[0]
    expect(after.product_license).not.toBe(before)
    expect(after.licenses).toHaveLength(1)
    const held = await ctx.db.selectFrom('licenses').select('status').where('order_line_id', '=', lineId).orderBy('id').execute()
    expect(held.map((l) => l.status)).toEqual(['void', 'sold'])
    const sent = await ctx.db
      .selectFrom('outbox_events')
      .select('events')
      .where('order_id', '=', orderId)
      .where('order_line_id', '=', lineId)
      .execute()
    expect(sent.flatMap((e) => e.events)).toContain('order.item.sent')
    // No license left: an auto resend is refused, a typed one replaces the licenses.
    const again = await complain(r, 'op-resend', lineId, 'invalid_code')
    const empty = await call('POST', `/complaints/${again}/resend`, { mode: 'auto' })
    expect(empty.statusCode).toBe(422)
    expect(empty.json()).toMatchObject({ message: 'INSUFFICIENT_STOCK', errors: { mode: [expect.any(String)] } })
    const typed = await call('POST', `/complaints/${again}/resend`, { mode: 'manual', product_license: 'TYPED-CODE-1', note: 'sorry' })
    expect(typed.statusCode, typed.body).toBe(200)
    expect((await get(app, '/trx/op-resend', r)).json().data.items[0].product_license).toBe('TYPED-CODE-1')
    expect(typed.json().data.messages.at(-1).message).not.toContain('TYPED-CODE-1')
    await assertInvariants(ctx.db)
  })
})

describe('reply and reject', () => {
  it('reply → answered, reject → closed rejected, a closed complaint takes no step; each action is audited', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const { complaint } = await manualSent(r, 'op-reply')
    const support = await operatorWithToken(ctx, 'support')
    const reply = await call('POST', `/complaints/${complaint}/reply`, { message: 'checking' }, support.headers)
    expect(reply.statusCode, reply.body).toBe(200)
    expect(reply.json().data).toMatchObject({ status: 'answered', overdue: false })
    const queue = (await call('GET', `/complaints?account_id=${r.id}`)).json()
    expect(queue.data.map((c: { id: number }) => c.id)).toEqual([complaint])
    const reject = await call('POST', `/complaints/${complaint}/reject`, { reason: 'the code was used' }, support.headers)
    expect(reject.json().data).toMatchObject({ status: 'closed', resolution: 'rejected' })
    const late = await call('POST', `/complaints/${complaint}/reply`, { message: 'more' })
    expect(late.statusCode).toBe(422)
    expect(late.json().message).toBe('COMPLAINT_NOT_ALLOWED')
    expect((await call('GET', `/complaints?account_id=${r.id}`)).json().data).toEqual([])
    expect((await call('GET', `/complaints?view=all&account_id=${r.id}`)).json().data).toHaveLength(1)
    const audited = await ctx.db
      .selectFrom('audit_log')
      .select(['action', 'actor'])
      .where('target_type', '=', 'complaints')
      .where('target_id', '=', String(complaint))
      .orderBy('id')
      .execute()
    expect(audited).toEqual([
      { action: 'adminReplyComplaint', actor: support.email },
      { action: 'adminRejectComplaint', actor: support.email },
    ])
    await assertInvariants(ctx.db)
  })

  it('marks an open complaint overdue past COMPLAINT_SLA_HOURS, oldest first', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const old = await manualSent(r, 'op-sla-1')
    const fresh = await manualSent(r, 'op-sla-2')
    await sql`UPDATE complaints SET created_at = now() - interval '30 hours' WHERE id = ${old.complaint}`.execute(ctx.db)
    await sql`UPDATE complaint_messages SET created_at = now() - interval '30 hours' WHERE complaint_id = ${old.complaint}`.execute(ctx.db)
    const queue = (await call('GET', `/complaints?account_id=${r.id}`)).json().data
    expect(queue.map((c: { id: number; overdue: boolean }) => [c.id, c.overdue])).toEqual([
      [old.complaint, true],
      [fresh.complaint, false],
    ])
    expect(queue[0].age_minutes).toBeGreaterThanOrEqual(30 * 60)
  })
})
