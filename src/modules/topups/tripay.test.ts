import crypto from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { minuteClock } from '../../../test/eventually.js'
import { admin, createReseller, get, type Reseller } from '../../../test/factory.js'
import { balanceOf } from '../../../test/factory-orders.js'
import { TRIPAY, startFakeTripay, tripayEnv } from '../../../test/fake-tripay.js'
import { assertInvariants } from '../../../test/invariants.js'

const tripay = await startFakeTripay()
afterAll(() => tripay.close())
// Its clock stays in one minute: the forgeries below count in one window of the rate limit.
const { app, ctx } = await createTestApp(tripayEnv(tripay), {}, { clock: minuteClock() })

const topUp = (r: Reseller, payload: object) => app.inject({ method: 'POST', url: '/api/v1/balance', headers: r.headers, payload })
const deliver = (raw: string, headers: Record<string, string>) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/callbacks/tripay',
    headers: { 'content-type': 'application/json', 'x-callback-event': 'payment_status', ...headers },
    payload: raw,
  })
const signed = (fields: Parameters<typeof tripay.callback>[0]) => {
  const { raw, signature } = tripay.callback(fields)
  return deliver(raw, { 'x-callback-signature': signature })
}
const credits = async (accountId: number) =>
  (await ctx.db.selectFrom('ledger_entries').select('amount').where('account_id', '=', accountId).where('type', '=', 'topup').execute())
    .length

describe('the Tripay gateway', () => {
  it('imports Tripay’s channel list (customer fees, range, type), leaving on/off of known channels to the operator', async () => {
    expect(await admin(app, 'POST', '/channels/sync')).toEqual({ added: 3, updated: 0 })
    await admin(app, 'PATCH', '/channels/BRIVA', { active: false })
    expect(await admin(app, 'POST', '/channels/sync')).toEqual({ added: 0, updated: 3 })
    const channels = await admin(app, 'GET', '/channels')
    expect(channels.map((c: any) => [c.code, c.type, c.fee_flat, c.fee_percent, c.min_amount, c.max_amount, c.active])).toEqual([
      ['ALFAMART', 'retail', 3_500, 0, 10_000, 2_500_000, false],
      ['BRIVA', 'va', 4_250, 0, 10_000, 10_000_000, false],
      ['QRIS2', 'qris', 750, 0.7, 10_000, 5_000_000, true],
    ])
  })

  it('creates a closed transaction signed with HMAC-SHA256(merchant code + merchant ref + amount) and answers its checkout link', async () => {
    const r = await createReseller(app, { name: 'Tri Shop' })
    const res = await topUp(r, { amount: 100_000, channel: 'QRIS2', ref_id: 'tri-1' })
    expect(res.statusCode, res.body).toBe(200)
    const topup = res.json().data
    const sent = tripay.created.at(-1)!
    expect(sent).toMatchObject({
      method: 'QRIS2',
      merchant_ref: topup.invoice,
      amount: 100_000,
      customer_name: 'Tri Shop',
      callback_url: 'https://shop.example/api/v1/callbacks/tripay',
    })
    expect(sent.signature).toBe(
      crypto.createHmac('sha256', TRIPAY.privateKey).update(`${TRIPAY.merchantCode}${topup.invoice}100000`).digest('hex'),
    )
    expect(sent.expired_time).toBe(Math.floor(Date.parse(topup.expires_at) / 1000))
    expect(topup).toMatchObject({
      amount: 100_000,
      fee: 1_450,
      total: 101_450,
      payment_url: `${tripay.baseUrl}/checkout/${topup.reference}`,
      status: 'pending',
    })
    expect(topup.reference).toMatch(/^DEV-T/)
  })

  it('stores nothing and leaves the ref_id free when Tripay refuses', async () => {
    const r = await createReseller(app)
    tripay.refuseNext()
    const refused = await topUp(r, { amount: 50_000, channel: 'QRIS2', ref_id: 'tri-retry' })
    expect([refused.statusCode, refused.json()]).toEqual([503, { message: 'SERVICE_UNAVAILABLE' }])
    expect((await get(app, '/trx/tri-retry', r)).statusCode).toBe(404)
    expect((await topUp(r, { amount: 50_000, channel: 'QRIS2', ref_id: 'tri-retry' })).statusCode).toBe(200)
  })

  it('credits a PAID callback exactly once, however often and concurrently it arrives, answering {"success": true}', async () => {
    const r = await createReseller(app)
    const topup = (await topUp(r, { amount: 250_000, channel: 'QRIS2' })).json().data
    const fields = { reference: topup.reference, merchant_ref: topup.invoice, status: 'PAID', total_amount: topup.total }
    const answers = await Promise.all(Array.from({ length: 10 }, () => signed(fields)))
    for (const a of answers) expect([a.statusCode, a.json()]).toEqual([200, { success: true }])
    for (let i = 0; i < 3; i++) expect((await signed(fields)).json()).toEqual({ success: true })
    expect(await balanceOf(app, r)).toBe(250_000)
    expect(await credits(r.id)).toBe(1)
    expect((await get(app, `/trx/${topup.invoice}`, r)).json().data.status).toBe('paid')
    // Only the gateway settles its top-ups: the simulator's operator route refuses.
    const operator = await app.inject({
      method: 'POST',
      url: `/api/admin/v1/topups/${topup.reference}/pay`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(operator.json()).toMatchObject({ data: { status: 'paid', credited: false } })
    await assertInvariants(ctx.db)
  })

  it('refuses a forged, a re-serialised or an unsigned callback, crediting nothing', async () => {
    const r = await createReseller(app)
    const topup = (await topUp(r, { amount: 40_000, channel: 'QRIS2' })).json().data
    const { raw, signature } = tripay.callback({ reference: topup.reference, merchant_ref: topup.invoice, status: 'PAID' })
    const forgedSignature = crypto.createHmac('sha256', 'not-the-private-key').update(raw).digest('hex')
    const attempts = [
      deliver(raw, { 'x-callback-signature': forgedSignature }),
      // The same JSON value, serialised again: the signature was over the bytes Tripay sent.
      deliver(JSON.stringify(JSON.parse(raw)), { 'x-callback-signature': signature }),
      deliver(raw.replace('"PAID"', '"PAID" '), { 'x-callback-signature': signature }),
      deliver(raw, {}),
      deliver(raw, { 'x-callback-signature': signature.toUpperCase().slice(1) }),
    ]
    for (const res of await Promise.all(attempts)) expect([res.statusCode, res.json()]).toEqual([401, { message: 'INVALID_SIGNATURE' }])
    const wrongEvent = await app.inject({
      method: 'POST',
      url: '/api/v1/callbacks/tripay',
      headers: { 'content-type': 'application/json', 'x-callback-event': 'other', 'x-callback-signature': signature },
      payload: raw,
    })
    expect([wrongEvent.statusCode, wrongEvent.json().message]).toEqual([422, 'VALIDATION_ERROR'])
    const otherInvoice = tripay.callback({ reference: topup.reference, merchant_ref: 'TOP20260101AAAAAAAA', status: 'PAID' })
    expect((await deliver(otherInvoice.raw, { 'x-callback-signature': otherInvoice.signature })).json()).toEqual({
      message: 'TOPUP_NOT_FOUND',
    })
    expect(await balanceOf(app, r)).toBe(0)
    expect((await get(app, `/trx/${topup.invoice}`, r)).json().data.status).toBe('pending')
    // Forgeries count against the sender's address like any failed authentication; the gateway's own
    // signed callback from that address is still taken.
    const remoteAddress = '198.51.100.77'
    const forged = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/callbacks/tripay',
        remoteAddress,
        headers: { 'content-type': 'application/json', 'x-callback-event': 'payment_status', 'x-callback-signature': forgedSignature },
        payload: raw,
      })
    const statuses: number[] = []
    for (let i = 0; i < ctx.config.authFailuresPerMinute + 2; i++) statuses.push((await forged()).statusCode)
    expect(statuses.filter((s) => s === 401)).toHaveLength(ctx.config.authFailuresPerMinute)
    expect(statuses.slice(-2)).toEqual([429, 429])
    expect(await credits(r.id)).toBe(0)
    const genuine = tripay.callback({ reference: topup.reference, merchant_ref: topup.invoice, status: 'EXPIRED' })
    const taken = await app.inject({
      method: 'POST',
      url: '/api/v1/callbacks/tripay',
      remoteAddress,
      headers: { 'content-type': 'application/json', 'x-callback-event': 'payment_status', 'x-callback-signature': genuine.signature },
      payload: genuine.raw,
    })
    expect(taken.json()).toEqual({ success: true })
  })

  it('retires on EXPIRED and FAILED without credit, yet credits a later PAID once (the money was received)', async () => {
    const r = await createReseller(app)
    const expired = (await topUp(r, { amount: 30_000, channel: 'QRIS2' })).json().data
    expect((await signed({ reference: expired.reference, merchant_ref: expired.invoice, status: 'EXPIRED' })).json()).toEqual({
      success: true,
    })
    expect((await get(app, `/trx/${expired.invoice}`, r)).json().data.status).toBe('expired')
    const failed = (await topUp(r, { amount: 20_000, channel: 'QRIS2' })).json().data
    await signed({ reference: failed.reference, merchant_ref: failed.invoice, status: 'FAILED' })
    expect((await get(app, `/trx/${failed.invoice}`, r)).json().data.status).toBe('failed')
    expect(await balanceOf(app, r)).toBe(0)

    const lapsed = (await topUp(r, { amount: 60_000, channel: 'QRIS2' })).json().data
    await sql`UPDATE topups SET expires_at = now() - interval '1 minute' WHERE reference = ${lapsed.reference}`.execute(ctx.db)
    for (const t of [expired, lapsed, expired])
      expect((await signed({ reference: t.reference, merchant_ref: t.invoice, status: 'PAID', total_amount: t.total })).json()).toEqual({
        success: true,
      })
    expect(await balanceOf(app, r)).toBe(90_000)
    expect(await credits(r.id)).toBe(2)
    // A refund after payment is recorded for the operator; the balance is theirs to adjust.
    expect((await signed({ reference: lapsed.reference, merchant_ref: lapsed.invoice, status: 'REFUND' })).json()).toEqual({
      success: true,
    })
    const rows = await admin(app, 'GET', `/topups?account_id=${r.id}`)
    expect(rows.map((t: any) => [t.invoice, t.status, t.gateway_status])).toEqual([
      [lapsed.invoice, 'paid', 'REFUND'],
      [failed.invoice, 'failed', 'FAILED'],
      [expired.invoice, 'paid', 'PAID'],
    ])
    await assertInvariants(ctx.db)
  })
})
