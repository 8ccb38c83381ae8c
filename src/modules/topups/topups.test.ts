import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createAutoItem, createReseller, get, type Reseller } from '../../../test/factory.js'
import { balanceOf, buy } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'
import { allWorkers } from '../../workers/index.js'

const { app, ctx } = await createTestApp({ PUBLIC_URL: 'https://shop.example' })
await admin(app, 'POST', '/channels', { code: 'QRIS', name: 'QRIS', type: 'qris', fee_flat: 750, fee_percent: 0.7, max_amount: 5_000_000 })
await admin(app, 'POST', '/channels', {
  code: 'BIGVA',
  name: 'Big VA',
  type: 'va',
  fee_flat: 4_250,
  min_amount: 50_000,
  max_amount: 2_000_000,
})
await admin(app, 'POST', '/channels', { code: 'OFF', name: 'Switched off', type: 'ewallet', active: false })
const shop = await createReseller(app, { name: 'Topper' })

const topUp = (r: Reseller, payload: unknown) =>
  app.inject({ method: 'POST', url: '/api/v1/balance', headers: r.headers, payload: payload as object })
const pay = (reference: string) =>
  app.inject({
    method: 'POST',
    url: `/api/admin/v1/topups/${reference}/pay`,
    headers: { authorization: 'Bearer test-admin-token-0123456789' },
  })
async function created(r: Reseller, payload: object) {
  const res = await topUp(r, payload)
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data
}
const sweeper = allWorkers(ctx).find((w) => w.name === 'topup-sweeper')!
const topupCredits = async (accountId: number) =>
  await ctx.db
    .selectFrom('ledger_entries')
    .select(['amount', 'topup_id'])
    .where('account_id', '=', accountId)
    .where('type', '=', 'topup')
    .execute()

describe('POST /v1/balance', () => {
  it('answers each invalid request with 422 VALIDATION_ERROR naming its field', async () => {
    const cases: [unknown, string][] = [
      [{ amount: 9_999, channel: 'QRIS' }, 'amount'],
      // Digits as text are taken (docs/design.md §3); text that is no whole number is not.
      [{ amount: '50000.5', channel: 'QRIS' }, 'amount'],
      [{ amount: 50_000.5, channel: 'QRIS' }, 'amount'],
      [{ channel: 'QRIS' }, 'amount'],
      [{ amount: 5_000_001, channel: 'QRIS' }, 'amount'],
      [{ amount: 40_000, channel: 'BIGVA' }, 'amount'],
      [{ amount: 2_000_001, channel: 'BIGVA' }, 'amount'],
      [{ amount: 50_000, channel: 'NOPE' }, 'channel'],
      [{ amount: 50_000, channel: 'OFF' }, 'channel'],
      [{ amount: 50_000 }, 'channel'],
      [{ amount: 50_000, channel: 'QRIS', ref_id: '   ' }, 'ref_id'],
      [{ amount: 50_000, channel: 'QRIS', ref_id: 'x'.repeat(192) }, 'ref_id'],
    ]
    for (const [payload, field] of cases) {
      const res = await topUp(shop, payload)
      expect([payload, res.statusCode, res.json().message, Object.keys(res.json().errors ?? {})]).toEqual([
        payload,
        422,
        'VALIDATION_ERROR',
        [field],
      ])
    }
    expect(await ctx.db.selectFrom('topups').select('id').execute()).toEqual([])
  })

  it('creates a pending top-up with its payment link, fee and total, readable through GET /v1/trx/{ref}', async () => {
    const topup = await created(shop, { amount: 50_000, channel: 'QRIS', ref_id: 'topup-1' })
    expect(topup).toMatchObject({ amount: 50_000, fee: 750 + 350, total: 51_100, ref_id: 'topup-1', channel: 'QRIS', status: 'pending' })
    expect(topup.invoice).toMatch(/^TOP\d{8}[A-Z0-9]{8}$/)
    expect(topup.payment_url).toBe(`https://shop.example/sim/pay/${topup.reference}`)
    expect(Date.parse(topup.expires_at)).toBeGreaterThan(Date.now())
    for (const ref of ['topup-1', topup.invoice]) {
      const res = await get(app, `/trx/${ref}`, shop)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({
        message: 'OK',
        data: {
          ref_id: 'topup-1',
          invoice: topup.invoice,
          payment_method: 'QRIS',
          status: 'pending',
          // The public docs: price the credited amount, fees what the payer adds, amount their sum.
          price: 50_000,
          fees: 1_100,
          amount: 51_100,
          total: 51_100,
          items: [],
          type: 'topup',
        },
        h2h_results: [],
        smm_results: [],
      })
    }
    // Not a purchase: the purchase list leaves it out.
    expect((await get(app, '/trx', shop)).json().data).toEqual([])
  })

  it('uses the invoice as ref_id when none is sent', async () => {
    const topup = await created(shop, { amount: 10_000, channel: 'QRIS' })
    expect(topup.ref_id).toBe(topup.invoice)
    expect((await get(app, `/trx/${topup.invoice}`, shop)).json().data.status).toBe('pending')
  })
})

describe('the shared ref_id namespace', () => {
  it('answers a top-up with a purchase’s ref_id, and a purchase with a top-up’s, REF_ID_ALREADY_EXIST and that transaction', async () => {
    const buyer = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 2, { price: 1_000 })
    const order = (await buy(app, buyer, 'shared-1', [{ item_id: item.id, quantity: 1 }])).json().data
    const refused = await topUp(buyer, { amount: 50_000, channel: 'QRIS', ref_id: 'shared-1' })
    expect(refused.statusCode).toBe(422)
    expect(refused.json()).toMatchObject({
      message: 'REF_ID_ALREADY_EXIST',
      data: { id: order.id, invoice: order.invoice, ref_id: 'shared-1', amount: 1_000, status: 'completed' },
    })

    const topup = await created(buyer, { amount: 20_000, channel: 'QRIS', ref_id: 'shared-2' })
    const purchase = await buy(app, buyer, 'shared-2', [{ item_id: item.id, quantity: 1 }])
    expect(purchase.statusCode).toBe(422)
    expect(purchase.json()).toEqual({
      message: 'REF_ID_ALREADY_EXIST',
      errors: { ref_id: ['The ref id has already been used.'] },
      data: {
        id: expect.any(Number),
        invoice: topup.invoice,
        ref_id: 'shared-2',
        amount: 20_000,
        status: 'pending',
        created_at: topup.created_at,
      },
    })
    const again = await topUp(buyer, { amount: 30_000, channel: 'QRIS', ref_id: 'shared-2' })
    expect(again.json()).toMatchObject({ message: 'REF_ID_ALREADY_EXIST', data: { invoice: topup.invoice, amount: 20_000 } })
    expect(await balanceOf(app, buyer)).toBe(99_000)
    // Another account has its own namespace.
    expect((await topUp(shop, { amount: 20_000, channel: 'QRIS', ref_id: 'shared-2' })).statusCode).toBe(200)
  })

  it('lets exactly one of racing purchases and top-ups with one ref_id through (purchases keep no registry row)', async () => {
    const buyer = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 10, { price: 1_000 })
    for (let round = 0; round < 5; round++) {
      const ref = `race-${round}`
      const answers = await Promise.all([
        ...Array.from({ length: 3 }, () => buy(app, buyer, ref, [{ item_id: item.id, quantity: 1 }])),
        ...Array.from({ length: 3 }, () => topUp(buyer, { amount: 10_000, channel: 'QRIS', ref_id: ref })),
      ])
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422, 422, 422, 422, 422])
      expect(answers.filter((a) => a.statusCode === 422).map((a) => a.json().message)).toEqual(Array(5).fill('REF_ID_ALREADY_EXIST'))
    }
  })
})

describe('paying a simulator top-up', () => {
  it('credits the amount once, however many operator calls race or repeat', async () => {
    const r = await createReseller(app)
    const topup = await created(r, { amount: 75_000, channel: 'QRIS' })
    const answers = await Promise.all(Array.from({ length: 8 }, () => pay(topup.reference)))
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200))
    expect(answers.filter((a) => a.json().data.credited)).toHaveLength(1)
    const repeat = (await pay(topup.reference)).json().data
    expect(repeat).toMatchObject({ status: 'paid', credited: false, invoice: topup.invoice })
    expect(await balanceOf(app, r)).toBe(75_000)
    expect(await topupCredits(r.id)).toEqual([{ amount: 75_000, topup_id: repeat.id }])
    const mutations = (await get(app, '/balance/mutations?type=topup', r)).json().data
    expect(mutations).toMatchObject([{ type: 'topup', direction: 'credit', amount: 75_000, invoice: topup.invoice, balance_after: 75_000 }])
    expect((await get(app, `/trx/${topup.invoice}`, r)).json().data).toMatchObject({ status: 'paid', paid_at: expect.any(String) })
    await assertInvariants(ctx.db)
  })

  it('answers an unknown reference TOPUP_NOT_FOUND', async () => {
    expect((await pay('SIMNOSUCHTHING')).json()).toEqual({ message: 'TOPUP_NOT_FOUND' })
  })

  it('refuses an expired top-up with TOPUP_EXPIRED, before and after the sweeper, and credits nothing', async () => {
    const r = await createReseller(app)
    const topup = await created(r, { amount: 15_000, channel: 'QRIS', ref_id: 'late' })
    await sql`UPDATE topups SET expires_at = now() - interval '1 second' WHERE reference = ${topup.reference}`.execute(ctx.db)
    expect((await get(app, '/trx/late', r)).json().data.status).toBe('expired')
    const early = await pay(topup.reference)
    expect([early.statusCode, early.json()]).toEqual([409, { message: 'TOPUP_EXPIRED' }])
    expect(await sweeper.runOnce()).toBeGreaterThanOrEqual(1)
    expect(
      (await ctx.db.selectFrom('topups').select('status').where('reference', '=', topup.reference).executeTakeFirstOrThrow()).status,
    ).toBe('expired')
    expect((await pay(topup.reference)).json()).toEqual({ message: 'TOPUP_EXPIRED' })
    const page = await app.inject({ method: 'GET', url: `/sim/pay/${topup.reference}` })
    expect(page.body).toContain('sudah tidak bisa dibayar')
    expect(page.body).not.toContain('<button')
    expect(await balanceOf(app, r)).toBe(0)
    // A second sweep finds nothing more of it.
    expect(await sweeper.runOnce()).toBe(0)
    expect((await get(app, '/trx/late', r)).json().data.status).toBe('expired')
  })

  it('serves a pay page whose form credits the balance, and refuses a post without its token', async () => {
    const r = await createReseller(app)
    const topup = await created(r, { amount: 20_000, channel: 'QRIS' })
    const url = new URL(topup.payment_url).pathname
    const page = await app.inject({ method: 'GET', url })
    expect(page.headers['content-type']).toContain('text/html')
    for (const text of [topup.invoice, 'QRIS', 'Rp 20.000', 'Rp 890', 'Rp 20.890', topup.expires_at]) expect(page.body).toContain(text)
    const confirm = /name="confirm" value="([^"]+)"/.exec(page.body)![1]
    const forged = await app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'confirm=nope',
    })
    expect([forged.statusCode, forged.json()]).toEqual([401, { message: 'INVALID_SIGNATURE' }])
    expect(await balanceOf(app, r)).toBe(0)
    const paid = await app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `confirm=${confirm}`,
    })
    expect(paid.statusCode).toBe(303)
    expect(await balanceOf(app, r)).toBe(20_000)
    const after = await app.inject({ method: 'GET', url })
    expect(after.body).toContain('Dibayar: saldo sudah bertambah.')
    await app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `confirm=${confirm}`,
    })
    expect(await balanceOf(app, r)).toBe(20_000)
  })
})
