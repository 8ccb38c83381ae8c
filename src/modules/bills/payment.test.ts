import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createItem, createReseller, get, type Reseller } from '../../../test/factory.js'
import { balanceOf } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'
import { addSimulatedProviders, startUpstreams } from '../../../test/upstreams.js'

// docs/design.md §5c's payment: one purchase priced by its inquiry, then pay-pasca under the inquiry's ref,
// status-pasca for a pending one, a refund once for a failed one. Against the Digiflazz simulator
// over real HTTP; the upstream worker driven by runOnce. The timeout is generous: a busy machine's
// simulator must never read as a provider that hangs.
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000' })
const up = await startUpstreams()
afterAll(() => up.close())

await addSimulatedProviders(app, up, { panel: false })
const postpaid = { order_process: 'h2h', price: 2_500, unlimited_stock: true, provider: 'dgf', provider_meta: { postpaid: true } }
const pln = await createItem(app, { ...postpaid, provider_code: 'pln' })
const bpjs = await createItem(app, { ...postpaid, provider_code: 'bpjs' })

const dispatch = () => ctx.fulfilment.upstream.runOnce()
/** The poll interval has passed for every pending request, then a worker pass. */
async function recheck() {
  await sql`UPDATE dispatches SET next_attempt_at = now() WHERE status IN ('pending', 'queued')`.execute(ctx.db)
  await dispatch()
}
const call = (r: Reseller, url: string, payload: object) =>
  app.inject({ method: 'POST', url: `/api/v1${url}`, headers: r.headers, payload })
async function inquiry(r: Reseller, customerId: string, itemId = pln.id) {
  const res = await call(r, '/trx/tagihan/inquiry', { item_id: itemId, customer_id: customerId })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data as { inquiry_id: number; amount: number; period: string; customer_name: string }
}
const pay = (r: Reseller, body: object) => call(r, '/trx/tagihan', { item_id: pln.id, ...body })
async function trx(r: Reseller, ref: string) {
  const res = await get(app, `/trx/${ref}`, r)
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}
const upstreamRefOf = async (inquiryId: number) =>
  (await ctx.db.selectFrom('bill_inquiries').select('upstream_ref').where('id', '=', inquiryId).executeTakeFirstOrThrow()).upstream_ref
const commandsFor = (ref: string) => up.digiflazz.requests.filter((q) => q.ref_id === ref).map((q) => q.commands)
const ledgerOf = (orderId: number) =>
  ctx.db.selectFrom('ledger_entries').select(['type', 'amount']).where('order_id', '=', orderId).orderBy('id').execute()
const events = async (orderId: number) =>
  (await ctx.db.selectFrom('outbox_events').select('events').where('order_id', '=', orderId).orderBy('id').execute()).flatMap(
    (e) => e.events,
  )

describe('POST /v1/trx/tagihan', () => {
  it('pays an inquiry as one purchase: answered as POST /v1/trx, one debit, order.paid, then pay-pasca under the inquiry’s ref and its sn', async () => {
    const r = await createReseller(app, { balance: 500_000 })
    const bill = await inquiry(r, '530000000011')
    const res = await pay(r, { ref_id: 'bill-ok', customer_id: '530000000011', inquiry_id: bill.inquiry_id, max_amount: bill.amount })
    expect(res.statusCode, res.body).toBe(200)
    const created = res.json().data
    expect(created).toEqual({
      id: expect.any(Number),
      invoice: expect.stringMatching(/^INV\d{8}[A-Z0-9]{8}$/),
      ref_id: 'bill-ok',
      status: 'paid',
      price: 152_500,
      fees: 0,
      amount: 152_500,
      contact: null,
      created_at: expect.stringMatching(/Z$/),
    })
    expect(await balanceOf(app, r)).toBe(500_000 - 152_500)
    expect(await ledgerOf(created.id)).toEqual([{ type: 'purchase', amount: 152_500 }])
    expect(await events(created.id)).toEqual(['order.paid'])

    // The line says whose bill it is, for which period, and how its amount is made up.
    const before = await trx(r, 'bill-ok')
    expect(before.data.items).toEqual([
      expect.objectContaining({
        variant_id: pln.id,
        quantity: 1,
        price: 152_500,
        subtotal: 152_500,
        target: '530000000011',
        status: 'pending',
        customer_name: 'PELANGGAN 0011',
        period: bill.period,
        bill: {
          customer_id: '530000000011',
          bill_count: 1,
          bill_amount: 150_000,
          admin_fee: 2_500,
          penalty: 0,
          amount: 152_500,
          details: [{ period: bill.period, bill_amount: 150_000, admin: 2_500, penalty: 0 }],
        },
      }),
    ])
    expect(before.h2h_results).toEqual([expect.objectContaining({ variant_id: pln.id, dispatch_status: 'pending', sn: '' })])

    await dispatch()
    const ref = await upstreamRefOf(bill.inquiry_id)
    expect(commandsFor(ref)).toEqual(['inq-pasca', 'pay-pasca'])
    const after = await trx(r, 'bill-ok')
    expect(after.data.status).toBe('completed')
    expect(after.h2h_results).toEqual([
      expect.objectContaining({ variant_id: pln.id, dispatch_status: 'completed', sn: expect.stringMatching(/^[0-9A-F]{24}$/) }),
    ])
    expect(after.data.items[0]).toMatchObject({ status: 'completed', customer_name: 'PELANGGAN 0011' })
    expect(await events(created.id)).toEqual(['order.paid', 'order.completed'])
    expect(await balanceOf(app, r)).toBe(500_000 - 152_500)
  })

  it('without inquiry_id it asks for the bill now and pays that one', async () => {
    const r = await createReseller(app, { balance: 500_000 })
    const res = await pay(r, { ref_id: 'bill-fresh', customer_id: '530000000021' })
    expect(res.statusCode, res.body).toBe(200)
    const [asked] = up.digiflazz.requests.filter((q) => q.customer_no === '530000000021')
    expect(asked.commands).toBe('inq-pasca')
    await dispatch()
    expect(commandsFor(asked.ref_id)).toEqual(['inq-pasca', 'pay-pasca'])
    expect((await trx(r, 'bill-fresh')).data.status).toBe('completed')
  })

  it('no bill to pay is BILL_NOT_AVAILABLE: nothing is charged, the ref_id stays free', async () => {
    const r = await createReseller(app, { balance: 500_000 })
    const res = await pay(r, { ref_id: 'bill-none', customer_id: '530000000005' })
    expect([res.statusCode, res.json().message]).toEqual([422, 'BILL_NOT_AVAILABLE'])
    expect(res.json().errors.customer_id).toHaveLength(1)
    expect(await balanceOf(app, r)).toBe(500_000)
    expect((await get(app, '/trx/bill-none', r)).statusCode).toBe(404)
  })

  it('a bill above max_amount is BILL_AMOUNT_CHANGED with the new amount and its inquiry; nothing is charged, the ref_id stays free', async () => {
    const r = await createReseller(app, { balance: 500_000 })
    // …7: the late fee grows by Rp 1,000 at every inquiry.
    const first = await inquiry(r, '530000000017')
    const changed = await pay(r, { ref_id: 'bill-grown', customer_id: '530000000017', max_amount: first.amount })
    expect(changed.statusCode).toBe(422)
    const body = changed.json()
    expect(body).toEqual({
      message: 'BILL_AMOUNT_CHANGED',
      errors: { max_amount: [expect.stringContaining(`the bill now comes to ${first.amount + 1_000}`)] },
      data: {
        inquiry_id: expect.any(Number),
        amount: first.amount + 1_000,
        max_amount: first.amount,
        expires_at: expect.stringMatching(/Z$/),
      },
    })
    expect(body.data.inquiry_id).not.toBe(first.inquiry_id)
    // The stored inquiry is measured against max_amount too.
    const given = await pay(r, {
      ref_id: 'bill-grown',
      customer_id: '530000000017',
      inquiry_id: first.inquiry_id,
      max_amount: first.amount - 1,
    })
    expect([given.json().message, given.json().data.inquiry_id]).toEqual(['BILL_AMOUNT_CHANGED', first.inquiry_id])
    expect(await balanceOf(app, r)).toBe(500_000)
    expect((await get(app, '/trx/bill-grown', r)).statusCode).toBe(404)
    // The reseller accepts the new amount: that inquiry pays.
    const ok = await pay(r, {
      ref_id: 'bill-grown',
      customer_id: '530000000017',
      inquiry_id: body.data.inquiry_id,
      max_amount: body.data.amount,
    })
    expect(ok.statusCode, ok.body).toBe(200)
    expect(ok.json().data.amount).toBe(first.amount + 1_000)
  })

  it('max_price is another name for max_amount: the lower of the two applies, refused as BILL_AMOUNT_CHANGED', async () => {
    const r = await createReseller(app, { balance: 500_000 })
    const asked = await inquiry(r, '530000000101')
    const base = { ref_id: 'bill-max-price', customer_id: '530000000101', inquiry_id: asked.inquiry_id }
    const alone = await pay(r, { ...base, max_price: asked.amount - 1 })
    expect([alone.statusCode, alone.json()]).toEqual([
      422,
      {
        message: 'BILL_AMOUNT_CHANGED',
        errors: {
          max_price: [
            `the bill now comes to ${asked.amount}, more than ${asked.amount - 1}: pay inquiry ${asked.inquiry_id} if that suits`,
          ],
        },
        data: { inquiry_id: asked.inquiry_id, amount: asked.amount, max_amount: asked.amount - 1, expires_at: expect.stringMatching(/Z$/) },
      },
    ])
    // Both sent: the lower bounds, whichever name it came by.
    const lowerPrice = await pay(r, { ...base, max_amount: asked.amount, max_price: asked.amount - 5 })
    expect([lowerPrice.json().message, Object.keys(lowerPrice.json().errors), lowerPrice.json().data.max_amount]).toEqual([
      'BILL_AMOUNT_CHANGED',
      ['max_price'],
      asked.amount - 5,
    ])
    const lowerAmount = await pay(r, { ...base, max_amount: asked.amount - 7, max_price: asked.amount })
    expect([lowerAmount.json().message, Object.keys(lowerAmount.json().errors), lowerAmount.json().data.max_amount]).toEqual([
      'BILL_AMOUNT_CHANGED',
      ['max_amount'],
      asked.amount - 7,
    ])
    expect(await balanceOf(app, r)).toBe(500_000)
    expect((await get(app, '/trx/bill-max-price', r)).statusCode).toBe(404)
    const ok = await pay(r, { ...base, max_amount: asked.amount + 1, max_price: asked.amount })
    expect(ok.statusCode, ok.body).toBe(200)
    expect(await balanceOf(app, r)).toBe(500_000 - asked.amount)
  })

  it('an inquiry pays once: a second payment of it is INQUIRY_ALREADY_USED, naming the transaction that paid it', async () => {
    const r = await createReseller(app, { balance: 500_000 })
    const bill = await inquiry(r, '530000000031')
    expect((await pay(r, { ref_id: 'bill-once', customer_id: '530000000031', inquiry_id: bill.inquiry_id })).statusCode).toBe(200)
    const again = await pay(r, { ref_id: 'bill-twice', customer_id: '530000000031', inquiry_id: bill.inquiry_id })
    expect(again.statusCode).toBe(422)
    expect(again.json()).toEqual({
      message: 'INQUIRY_ALREADY_USED',
      errors: { inquiry_id: ['this bill was paid by your transaction bill-once: a new bill needs a new inquiry'] },
      data: { inquiry_id: bill.inquiry_id, ref_id: 'bill-once' },
    })
    expect((await get(app, '/trx/bill-twice', r)).statusCode).toBe(404)
    expect(await balanceOf(app, r)).toBe(500_000 - bill.amount)
  })

  it('two payments of one inquiry at once: one pays, the other is refused, one debit', async () => {
    const r = await createReseller(app, { balance: 500_000 })
    const bill = await inquiry(r, '530000000041', bpjs.id)
    const both = await Promise.all(
      ['bill-race-a', 'bill-race-b'].map((ref) =>
        call(r, '/trx/tagihan', { ref_id: ref, item_id: bpjs.id, customer_id: '530000000041', inquiry_id: bill.inquiry_id }),
      ),
    )
    expect(both.map((res) => res.statusCode).sort()).toEqual([200, 422])
    expect(both.find((res) => res.statusCode === 422)!.json().message).toBe('INQUIRY_ALREADY_USED')
    expect(await balanceOf(app, r)).toBe(500_000 - bill.amount)
    const dispatches = await ctx.db
      .selectFrom('dispatches')
      .select('id')
      .where('upstream_ref', '=', await upstreamRefOf(bill.inquiry_id))
      .execute()
    expect(dispatches).toHaveLength(1)
  })

  it('the same ref_id again answers REF_ID_ALREADY_EXIST with that transaction: one debit, no second inquiry or payment', async () => {
    const r = await createReseller(app, { balance: 500_000 })
    const first = await pay(r, { ref_id: 'bill-retry', customer_id: '530000000051' })
    expect(first.statusCode).toBe(200)
    const asked = up.digiflazz.requests.length
    for (const body of [{ customer_id: '530000000051' }, { customer_id: '530000000061', inquiry_id: 999_999 }]) {
      const retry = await pay(r, { ref_id: 'bill-retry', ...body })
      expect(retry.statusCode).toBe(422)
      expect(retry.json()).toMatchObject({
        message: 'REF_ID_ALREADY_EXIST',
        errors: { ref_id: ['The ref id has already been used.'] },
        data: { id: first.json().data.id, ref_id: 'bill-retry', amount: 152_500 },
      })
    }
    expect(up.digiflazz.requests.length).toBe(asked)
    expect(await ledgerOf(first.json().data.id)).toEqual([{ type: 'purchase', amount: 152_500 }])
  })

  it('a failed payment cancels the order and refunds it once, however often it is looked at again', async () => {
    const r = await createReseller(app, { balance: 500_000 })
    const bill = await inquiry(r, '530000000002')
    const paid = await pay(r, { ref_id: 'bill-fail', customer_id: '530000000002', inquiry_id: bill.inquiry_id })
    expect(paid.statusCode).toBe(200)
    await dispatch()
    await recheck()
    const body = await trx(r, 'bill-fail')
    expect(body.data.status).toBe('canceled')
    expect(body.data.items[0].status).toBe('refunded')
    expect(body.h2h_results[0]).toMatchObject({ dispatch_status: 'failed', sn: 'failed: Transaksi Gagal' })
    expect(await ledgerOf(paid.json().data.id)).toEqual([
      { type: 'purchase', amount: bill.amount },
      { type: 'refund', amount: bill.amount },
    ])
    expect(await balanceOf(app, r)).toBe(500_000)
    expect(commandsFor(await upstreamRefOf(bill.inquiry_id))).toEqual(['inq-pasca', 'pay-pasca'])
    expect(await events(paid.json().data.id)).toEqual(['order.paid', 'order.canceled'])
  })

  it('a pending payment is resolved by status-pasca, never a second pay-pasca', async () => {
    const r = await createReseller(app, { balance: 500_000 })
    const bill = await inquiry(r, '530000000003')
    expect((await pay(r, { ref_id: 'bill-later', customer_id: '530000000003', inquiry_id: bill.inquiry_id })).statusCode).toBe(200)
    await dispatch()
    const pending = await trx(r, 'bill-later')
    expect(pending.data.status).toBe('paid')
    expect(pending.h2h_results[0]).toMatchObject({ dispatch_status: 'pending', log_message: 'Transaksi Pending' })
    await recheck()
    await recheck()
    const done = await trx(r, 'bill-later')
    expect(done.data.status).toBe('completed')
    expect(done.h2h_results[0]).toMatchObject({ dispatch_status: 'completed', sn: expect.stringMatching(/^[0-9A-F]{24}$/) })
    expect(commandsFor(await upstreamRefOf(bill.inquiry_id))).toEqual(['inq-pasca', 'pay-pasca', 'status-pasca'])
    expect(await balanceOf(app, r)).toBe(500_000 - bill.amount)
  })

  it('a payment cut off on its way is only ever asked about afterwards: the provider never had it, so it is refunded once', async () => {
    const r = await createReseller(app, { balance: 500_000 })
    const bill = await inquiry(r, '530000000071')
    const paid = await pay(r, { ref_id: 'bill-cut', customer_id: '530000000071', inquiry_id: bill.inquiry_id })
    expect(paid.statusCode).toBe(200)
    up.hang = true
    try {
      await dispatch()
    } finally {
      up.hang = false
    }
    expect((await trx(r, 'bill-cut')).data.status).toBe('paid')
    await recheck()
    expect(commandsFor(await upstreamRefOf(bill.inquiry_id))).toEqual(['inq-pasca', 'status-pasca'])
    expect((await trx(r, 'bill-cut')).data.status).toBe('canceled')
    expect(await balanceOf(app, r)).toBe(500_000)
  })

  it('another account’s inquiry is not found; an expired one, another customer’s or item’s is refused; nothing is charged', async () => {
    const owner = await createReseller(app, { balance: 500_000 })
    const other = await createReseller(app, { balance: 500_000 })
    const bill = await inquiry(owner, '530000000081')
    const stolen = await pay(other, { ref_id: 'bill-other', customer_id: '530000000081', inquiry_id: bill.inquiry_id })
    expect(stolen.statusCode).toBe(404)
    expect(stolen.json()).toEqual({
      message: 'INQUIRY_NOT_FOUND',
      errors: { inquiry_id: ['no inquiry of yours has this id: ask one with POST /api/v1/trx/tagihan/inquiry'] },
    })
    const wrongCustomer = await pay(owner, { ref_id: 'bill-mismatch', customer_id: '530000000091', inquiry_id: bill.inquiry_id })
    expect(wrongCustomer.json()).toMatchObject({
      message: 'VALIDATION_ERROR',
      errors: { customer_id: [expect.stringContaining('530000000081')] },
    })
    const wrongItem = await pay(owner, {
      ref_id: 'bill-mismatch',
      item_id: bpjs.id,
      customer_id: '530000000081',
      inquiry_id: bill.inquiry_id,
    })
    expect(wrongItem.json()).toMatchObject({
      message: 'VALIDATION_ERROR',
      errors: { inquiry_id: [`is an inquiry for item ${pln.id}: pay it with that item_id, or ask an inquiry for this item`] },
    })

    await sql`UPDATE bill_inquiries SET expires_at = now() - interval '1 second' WHERE id = ${bill.inquiry_id}`.execute(ctx.db)
    const expired = await pay(owner, { ref_id: 'bill-late', customer_id: '530000000081', inquiry_id: bill.inquiry_id })
    expect(expired.statusCode).toBe(422)
    expect(expired.json()).toEqual({
      message: 'INQUIRY_EXPIRED',
      errors: { inquiry_id: [expect.stringMatching(/^expired at \S+Z: ask a new inquiry/)] },
    })
    expect([await balanceOf(app, owner), await balanceOf(app, other)]).toEqual([500_000, 500_000])
    for (const ref of ['bill-other', 'bill-mismatch', 'bill-late']) expect((await get(app, `/trx/${ref}`, owner)).statusCode).toBe(404)
  })

  it('a balance short of the bill refuses it and leaves the inquiry payable', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const bill = await inquiry(r, '530000000101')
    const short = await pay(r, { ref_id: 'bill-short', customer_id: '530000000101', inquiry_id: bill.inquiry_id })
    expect(short.statusCode).toBe(400)
    expect(short.json()).toMatchObject({ message: 'BALANCE_IS_INSUFFICIENT', data: { balance: 100_000, required: bill.amount } })
    await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: 100_000, reason: 'top up' })
    expect((await pay(r, { ref_id: 'bill-short', customer_id: '530000000101', inquiry_id: bill.inquiry_id })).statusCode).toBe(200)
  })

  it('a bill costs the supplier’s price from its inquiry: the line’s cost and its payment’s, so its margin is exact', async () => {
    const r = await createReseller(app, { balance: 500_000 })
    const bill = await inquiry(r, '530000000021')
    const res = await pay(r, { ref_id: 'bill-cost', customer_id: '530000000021', inquiry_id: bill.inquiry_id })
    expect(res.statusCode, res.body).toBe(200)
    const orderId = res.json().data.id
    // The simulator's price: the bill and its own admin fee less its commission, 152,000; ours 152,500.
    const line = await ctx.db
      .selectFrom('order_lines')
      .select(['subtotal', 'cost'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(line).toEqual({ subtotal: 152_500, cost: 152_000 })
    const sent = await ctx.db.selectFrom('dispatches').select(['cost', 'amount']).where('order_id', '=', orderId).execute()
    expect(sent).toEqual([{ cost: 152_000, amount: 152_500 }])
  })

  it('an item that allows a loss pays a bill above its amount, at the supplier’s price', async () => {
    const promo = await createItem(app, { ...postpaid, provider_code: 'pln' })
    await sql`UPDATE items SET allow_loss = true WHERE id = ${promo.id}`.execute(ctx.db)
    const r = await createReseller(app, { balance: 500_000 })
    const bill = await inquiry(r, '530000000028', promo.id)
    expect(bill.amount).toBe(102_500)
    const res = await call(r, '/trx/tagihan', {
      item_id: promo.id,
      ref_id: 'bill-loss',
      customer_id: '530000000028',
      inquiry_id: bill.inquiry_id,
    })
    expect(res.statusCode, res.body).toBe(200)
    const line = await ctx.db
      .selectFrom('order_lines')
      .select(['subtotal', 'cost'])
      .where('order_id', '=', res.json().data.id)
      .executeTakeFirstOrThrow()
    expect(line).toEqual({ subtotal: 102_500, cost: 110_000 })
  })

  it('a bill below the floor, paid without an inquiry, is 503 with nothing charged and the ref_id free', async () => {
    const r = await createReseller(app, { balance: 500_000 })
    const res = await pay(r, { ref_id: 'bill-floor', customer_id: '530000000038' })
    expect([res.statusCode, res.json().message]).toEqual([503, 'PRODUCT_TEMPORARILY_UNAVAILABLE'])
    expect(await balanceOf(app, r)).toBe(500_000)
    expect((await get(app, '/trx/bill-floor', r)).statusCode).toBe(404)
  })

  it('the books hold after all of it', async () => {
    await assertInvariants(ctx.db)
  })
})
