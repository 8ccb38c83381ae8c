import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { signedIn } from '../../../test/console.js'
import { admin, createReseller, get, type Reseller } from '../../../test/factory.js'
import { balanceOf } from '../../../test/factory-orders.js'
import { startFakeTripay, tripayEnv } from '../../../test/fake-tripay.js'
import { assertInvariants } from '../../../test/invariants.js'
import { COMMANDS } from '../../cli/commands.js'

// docs/design.md §7: a signed PAID whose paid total is not the top-up's total credits nothing by itself;
// the top-up waits in review until an operator credits the requested amount, another, or nothing.
const tripay = await startFakeTripay()
afterAll(() => tripay.close())
const { app, ctx } = await createTestApp(tripayEnv(tripay))
await admin(app, 'POST', '/channels/sync')

type Created = { reference: string; invoice: string; amount: number; total: number }
async function topUp(r: Reseller, amount: number): Promise<Created> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/balance', headers: r.headers, payload: { amount, channel: 'QRIS2' } })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data
}
function paid(t: Created, fields: { total_amount?: unknown } = { total_amount: t.total }) {
  // The fake's type says number; a gateway may send anything, and the signature covers it as sent.
  const { raw, signature } = tripay.callback({ reference: t.reference, merchant_ref: t.invoice, status: 'PAID', ...(fields as object) })
  return app.inject({
    method: 'POST',
    url: '/api/v1/callbacks/tripay',
    headers: { 'content-type': 'application/json', 'x-callback-event': 'payment_status', 'x-callback-signature': signature },
    payload: raw,
  })
}
const resolve = (reference: string, payload: object) =>
  app.inject({
    method: 'POST',
    url: `/api/admin/v1/topups/${encodeURIComponent(reference)}/resolve`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload,
  })
const statusOf = async (r: Reseller, t: Created) => (await get(app, `/trx/${t.invoice}`, r)).json().data.status
const topupCredits = async (accountId: number) =>
  (
    await ctx.db
      .selectFrom('ledger_entries')
      .select(['amount', 'description'])
      .where('account_id', '=', accountId)
      .where('type', '=', 'topup')
      .execute()
  ).map((e) => e.amount)
const operatorRow = async (r: Reseller, t: Created) =>
  (await admin(app, 'GET', `/topups?account_id=${r.id}`)).find((row: { reference: string }) => row.reference === t.reference)

describe('a signed PAID with another paid total', () => {
  it('credits nothing: total_amount 1 on a 100,000 top-up turns it review, the balance unchanged and equal to its ledger', async () => {
    const r = await createReseller(app, { balance: 5_000 })
    const t = await topUp(r, 100_000)
    expect(t.total).toBe(101_450)
    const res = await paid(t, { total_amount: 1 })
    expect([res.statusCode, res.json()]).toEqual([200, { success: true }])
    expect(await balanceOf(app, r)).toBe(5_000)
    expect(await topupCredits(r.id)).toEqual([])
    expect(await statusOf(r, t)).toBe('review')
    expect(await operatorRow(r, t)).toMatchObject({
      status: 'review',
      gateway_status: 'PAID',
      paid_total: 1,
      review_reason: "tripay reported PAID with total_amount 1; the top-up's total is 101450",
      credited_amount: null,
      resolved_at: null,
    })
    expect((await admin(app, 'GET', `/topups?status=review&account_id=${r.id}`)).map((x: Created) => x.reference)).toEqual([t.reference])
    await assertInvariants(ctx.db)
  })

  it('stays in review on repeats, and a later PAID with the right total does not credit it either (the operator decides)', async () => {
    const r = await createReseller(app)
    const t = await topUp(r, 50_000)
    expect((await paid(t, { total_amount: 40_000 })).json()).toEqual({ success: true })
    const answers = await Promise.all([paid(t, { total_amount: 40_000 }), paid(t, { total_amount: 40_000 }), paid(t, { total_amount: 7 })])
    for (const a of answers) expect([a.statusCode, a.json()]).toEqual([200, { success: true }])
    expect((await paid(t)).json()).toEqual({ success: true })
    expect(await balanceOf(app, r)).toBe(0)
    expect(await statusOf(r, t)).toBe('review')
    // The first report stands: nothing later rewrote it.
    expect((await operatorRow(r, t)).paid_total).toBe(40_000)
    // Nor does the simulator's operator route pay it.
    const pay = await app.inject({
      method: 'POST',
      url: `/api/admin/v1/topups/${t.reference}/pay`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect([pay.statusCode, pay.json().message]).toEqual([409, 'INVALID_STATE'])
    expect(await topupCredits(r.id)).toEqual([])
  })

  it('treats a missing or unusable total_amount as a mismatch, never a credit, never a 500', async () => {
    const r = await createReseller(app)
    const cases: [unknown, number | null][] = [
      [undefined, null],
      ['20450', null],
      [20_450.5, null],
      [-20_450, null],
      [null, null],
      [1e300, null],
    ]
    for (const [total_amount, recorded] of cases) {
      const t = await topUp(r, 20_000)
      const res = await paid(t, total_amount === undefined ? {} : { total_amount })
      expect([total_amount, res.statusCode, res.json()]).toEqual([total_amount, 200, { success: true }])
      expect(await statusOf(r, t)).toBe('review')
      expect((await operatorRow(r, t)).paid_total).toBe(recorded)
    }
    expect(await balanceOf(app, r)).toBe(0)
  })

  it('still credits a PAID with the right total exactly once, also after local expiry', async () => {
    const r = await createReseller(app)
    const t = await topUp(r, 30_000)
    await sql`UPDATE topups SET expires_at = now() - interval '1 minute' WHERE reference = ${t.reference}`.execute(ctx.db)
    await Promise.all([paid(t), paid(t), paid(t)])
    expect((await paid(t, { total_amount: 1 })).json()).toEqual({ success: true })
    expect(await balanceOf(app, r)).toBe(30_000)
    expect(await topupCredits(r.id)).toEqual([30_000])
    expect(await operatorRow(r, t)).toMatchObject({ status: 'paid', paid_total: t.total })
  })
})

describe('POST /api/admin/v1/topups/{reference}/resolve', () => {
  it('credits the requested amount exactly once; every other resolve is 409 INVALID_STATE', async () => {
    const r = await createReseller(app)
    const t = await topUp(r, 100_000)
    await paid(t, { total_amount: 1 })
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => resolve(t.reference, { credit_amount: 100_000, reason: 'bank shows 101,450 received' })),
    )
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409])
    const ok = answers.find((a) => a.statusCode === 200)!.json().data
    expect(ok).toMatchObject({
      status: 'paid',
      credited_amount: 100_000,
      resolution_reason: 'bank shows 101,450 received',
      paid_total: 1,
    })
    expect(Date.parse(ok.resolved_at)).not.toBeNaN()
    expect(Date.parse(ok.paid_at)).not.toBeNaN()
    const again = await resolve(t.reference, { credit_amount: 0, reason: 'second thoughts' })
    expect([again.statusCode, again.json()]).toEqual([
      409,
      { message: 'INVALID_STATE', errors: { reference: ['the top-up is paid, not in review'] } },
    ])
    expect(await balanceOf(app, r)).toBe(100_000)
    expect(await topupCredits(r.id)).toEqual([100_000])
    expect(await statusOf(r, t)).toBe('paid')
    // The gateway repeating itself changes nothing either.
    expect((await paid(t)).json()).toEqual({ success: true })
    expect(await topupCredits(r.id)).toEqual([100_000])
    await assertInvariants(ctx.db)
  })

  it('credits another amount, recorded on the top-up and in its one ledger entry; the books still balance', async () => {
    const r = await createReseller(app)
    const t = await topUp(r, 100_000)
    await paid(t, { total_amount: 51_450 })
    const res = await resolve(t.reference, { credit_amount: 50_000, reason: 'only half arrived' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().data).toMatchObject({ status: 'paid', amount: 100_000, credited_amount: 50_000 })
    expect(await balanceOf(app, r)).toBe(50_000)
    const [entry] = await ctx.db.selectFrom('ledger_entries').selectAll().where('account_id', '=', r.id).execute()
    expect(entry).toMatchObject({ type: 'topup', direction: 'credit', amount: 50_000, invoice: t.invoice })
    expect(entry.description).toContain('only half arrived')
    // The reseller reads what was credited.
    expect((await get(app, `/trx/${t.invoice}`, r)).json().data).toMatchObject({ status: 'paid', price: 50_000 })
    const audit = await admin(app, 'GET', `/resellers/${r.id}/audit`)
    expect(audit.consistent).toBe(true)
    await assertInvariants(ctx.db)
  })

  it('credits nothing with 0: the top-up turns failed, no ledger entry, and a later PAID does not revive it', async () => {
    const r = await createReseller(app)
    const t = await topUp(r, 40_000)
    await paid(t, {})
    const res = await resolve(t.reference, { credit_amount: 0, reason: 'no money at the gateway' })
    expect(res.json().data).toMatchObject({ status: 'failed', credited_amount: 0, resolution_reason: 'no money at the gateway' })
    expect(res.json().data.paid_at).toBeNull()
    expect(await statusOf(r, t)).toBe('failed')
    expect((await paid(t)).json()).toEqual({ success: true })
    expect(await balanceOf(app, r)).toBe(0)
    expect(await topupCredits(r.id)).toEqual([])
    expect((await resolve(t.reference, { credit_amount: 40_000, reason: 'retry' })).statusCode).toBe(409)
  })

  it('answers bad input with a 4xx naming the field, an unknown top-up 404, one not in review 409', async () => {
    const r = await createReseller(app)
    const t = await topUp(r, 25_000)
    const cases: [object, string][] = [
      [{ credit_amount: -1, reason: 'x' }, 'credit_amount'],
      [{ credit_amount: 1.5, reason: 'x' }, 'credit_amount'],
      [{ credit_amount: '25000', reason: 'x' }, 'credit_amount'],
      [{ credit_amount: 10 ** 15 + 1, reason: 'x' }, 'credit_amount'],
      [{ reason: 'x' }, 'credit_amount'],
      [{ credit_amount: 1 }, 'reason'],
      [{ credit_amount: 1, reason: '' }, 'reason'],
      [{ credit_amount: 1, reason: '   ' }, 'reason'],
    ]
    await paid(t, { total_amount: 2 })
    for (const [payload, field] of cases) {
      const res = await resolve(t.reference, payload)
      expect([payload, res.statusCode, res.json().message, Object.keys(res.json().errors ?? {})]).toEqual([
        payload,
        422,
        'VALIDATION_ERROR',
        [field],
      ])
    }
    expect((await resolve('DEV-nope', { credit_amount: 1, reason: 'x' })).json()).toEqual({ message: 'TOPUP_NOT_FOUND' })
    const pending = await topUp(r, 25_000)
    expect((await resolve(pending.reference, { credit_amount: 1, reason: 'x' })).json()).toEqual({
      message: 'INVALID_STATE',
      errors: { reference: ['the top-up is pending, not in review'] },
    })
    // A credit that would take the balance past 10^15 names the operator's field.
    await sql`UPDATE accounts SET balance = 1000000000000000 - 10 WHERE id = ${r.id}`.execute(ctx.db)
    const over = await resolve(t.reference, { credit_amount: 11, reason: 'x' })
    expect([over.statusCode, Object.keys(over.json().errors)]).toEqual([422, ['credit_amount']])
    expect(await statusOf(r, t)).toBe('review')
    await sql`UPDATE accounts SET balance = 0 WHERE id = ${r.id}`.execute(ctx.db)
  })

  it('has a CLI command', () => {
    expect(COMMANDS['topups:resolve'].path(['DEV-T1'])).toBe('/topups/DEV-T1/resolve')
    expect(COMMANDS['topups:resolve'].body!({ 'credit-amount': '0', reason: 'nothing arrived' }, ['DEV-T1'])).toEqual({
      credit_amount: 0,
      reason: 'nothing arrived',
    })
  })
})

describe('console: top-ups in review', () => {
  it('lists them with the requested and paid totals, and resolves them with the requested amount, another, or nothing', async () => {
    const operator = await signedIn(app)
    const r = await createReseller(app, { name: 'Toko Review' })
    const [a, b, c] = [await topUp(r, 100_000), await topUp(r, 60_000), await topUp(r, 70_000)]
    await paid(a, { total_amount: 1 })
    await paid(b, { total_amount: 30_000 })
    await paid(c, {})
    // The overview counts them as a queue of their own.
    const inReview = (await admin(app, 'GET', '/topups?status=review')).length
    expect((await admin(app, 'GET', '/overview')).queues.topups_review).toBe(inReview)
    expect((await operator.get('/console')).body).toMatch(
      new RegExp(`id="queue-topup-review" href="/console/topups\\?status=review"><small>Top-ups in review</small><b>${inReview}</b>`),
    )
    const page = await operator.get(`/console/topups?account_id=${r.id}`)
    expect(page.status).toBe(200)
    const queue = page.body.split('id="review-topups"')[1].split('</table>')[0]
    for (const t of [a, b, c]) expect(queue).toContain(`/console/topups/${t.reference}/resolve`)
    expect(queue).toContain('Rp 100.000')
    expect(queue).toContain('Rp 101.450')
    expect(queue).toContain('Rp 1<')
    expect(queue).toContain('Rp 30.000')

    const requested = await operator.post(`/console/topups/${a.reference}/resolve`, { credit: 'requested', reason: 'seen at the bank' })
    expect([requested.status, requested.location]).toEqual([303, '/console/topups?done=resolved'])
    await operator.get('/console/topups')
    const badOther = await operator.post(`/console/topups/${b.reference}/resolve`, { credit: 'other', other_amount: 'lots', reason: 'x' })
    expect([badOther.status, badOther.body.includes('other_amount')]).toEqual([422, true])
    await operator.get('/console/topups')
    await operator.post(`/console/topups/${b.reference}/resolve`, { credit: 'other', other_amount: '28550', reason: 'partial payment' })
    await operator.get('/console/topups')
    await operator.post(`/console/topups/${c.reference}/resolve`, { credit: 'nothing', reason: 'no payment found' })
    await operator.get('/console/topups')
    const twice = await operator.post(`/console/topups/${a.reference}/resolve`, { credit: 'requested', reason: 'again' })
    expect([twice.status, twice.body.includes('INVALID_STATE')]).toEqual([409, true])

    expect(await balanceOf(app, r)).toBe(128_550)
    expect((await topupCredits(r.id)).sort()).toEqual([100_000, 28_550])
    expect([await statusOf(r, a), await statusOf(r, b), await statusOf(r, c)]).toEqual(['paid', 'paid', 'failed'])
    const after = await operator.get(`/console/topups?account_id=${r.id}`)
    expect(after.body).not.toContain('id="review-topups"')
    expect(after.body).toContain('resolved: Rp 28.550 credited')
    await assertInvariants(ctx.db)
  })
})
