import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { admin, createReseller, type Reseller } from '../../../test/factory.js'
import { balanceOf } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'
import { withConfig } from '../../config.js'
import { mootaSimulator } from '../../providers/moota-simulator.js'
import { checkMootaSecret } from './moota-secret.js'
import { mootaSignature, type MootaMutation } from '../../providers/moota.js'

// Bank transfer with a unique code (docs/design.md §7b): the money invariants under repeats, races,
// statements and operators, through the real hook, the real API and the real database.

const SECRET = 'test-moota-secret-5b1e'
const ACCOUNT = '8830012345'
const { app, ctx } = await createTestApp({ MOOTA_WEBHOOK_SECRET: SECRET })
await admin(app, 'POST', '/channels', {
  code: 'BCA',
  name: 'Transfer BCA',
  type: 'bank_transfer',
  bank: 'BCA',
  account_number: ACCOUNT,
  account_name: 'PT Toko Contoh',
})

const hook = (payload: string, headers: Record<string, string>) =>
  app.inject({ method: 'POST', url: '/api/hooks/moota', headers: { 'content-type': 'application/json', ...headers }, payload })
const moota = mootaSimulator(SECRET, async (payload, headers) => (await hook(payload, headers)).statusCode)
const push = async (mutations: MootaMutation[]) => {
  const raw = JSON.stringify(mutations)
  const res = await hook(raw, { signature: mootaSignature(SECRET, raw) })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data
}
const topUp = async (r: Reseller, amount: number, ref_id?: string) => {
  const res = await app.inject({ method: 'POST', url: '/api/v1/balance', headers: r.headers, payload: { amount, channel: 'BCA', ref_id } })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data
}
const stored = async () => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM bank_mutations`.execute(ctx.db)).rows[0]!.n)
const importCsv = (csv: string, channel = 'BCA') =>
  app.inject({
    method: 'POST',
    url: `/api/admin/v1/bank-mutations/import?channel=${channel}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/csv' },
    payload: csv,
  })
const mutationOf = async (mutationId: string) =>
  ctx.db.selectFrom('bank_mutations').selectAll().where('mutation_id', '=', mutationId).executeTakeFirstOrThrow()

describe('a bank-transfer top-up', () => {
  it('answers a unique code, the total, the account and an instructions page; a bank channel needs its account', async () => {
    const refused = await app.inject({
      method: 'POST',
      url: '/api/admin/v1/channels',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { code: 'BNI', name: 'Transfer BNI', type: 'bank_transfer', bank: 'BNI' },
    })
    expect([refused.statusCode, refused.json().errors]).toEqual([422, { account_number: ['is required on a bank_transfer channel'] }])
    const shop = await createReseller(app)
    const before = Date.now()
    const t = await topUp(shop, 100_000, 'bt-1')
    expect(t.unique_code).toBeGreaterThanOrEqual(1)
    expect(t.unique_code).toBeLessThanOrEqual(999)
    expect(t).toMatchObject({ amount: 100_000, fee: 0, total: 100_000 + t.unique_code, status: 'pending', channel: 'BCA' })
    expect(t.pay_to).toEqual({ bank: 'BCA', account_number: ACCOUNT, account_name: 'PT Toko Contoh' })
    const hours = (Date.parse(t.expires_at) - before) / 3_600_000
    expect(hours).toBeGreaterThan(23.9)
    expect(hours).toBeLessThan(24.1)
    const page = await app.inject({ method: 'GET', url: new URL(t.payment_url).pathname })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain(`data-copy="${t.total}"`)
    expect(page.body).toContain(`data-copy="${ACCOUNT}"`)
    expect(page.body).toContain('Transfer <b>tepat</b>')
  })

  it('credits a push once, however often it repeats and however many copies race', async () => {
    const shop = await createReseller(app)
    const t = await topUp(shop, 50_000)
    const transfer = moota.credit(ACCOUNT, t.total)
    const results = await Promise.all(Array.from({ length: 6 }, () => push([transfer])))
    expect(results.reduce((n, r) => n + r.matched, 0)).toBe(1)
    expect(results.reduce((n, r) => n + r.repeated, 0)).toBe(5)
    expect((await push([transfer])).repeated).toBe(1)
    expect(await balanceOf(app, shop)).toBe(t.total)
    const trx = (await app.inject({ method: 'GET', url: `/api/v1/trx/${t.ref_id}`, headers: shop.headers })).json().data
    expect(trx.status).toBe('paid')
    expect(await mutationOf(transfer.mutation_id)).toMatchObject({ status: 'matched', matched_by: 'push', credited_amount: t.total })
  })

  it('refuses a bad or missing signature with 401 and stores nothing', async () => {
    const shop = await createReseller(app)
    const t = await topUp(shop, 60_000)
    const raw = JSON.stringify([moota.credit(ACCOUNT, t.total)])
    const count = await stored()
    const attempts: Record<string, string>[] = [{}, { signature: mootaSignature('another-secret', raw) }, { signature: 'abc' }]
    for (const headers of attempts) {
      const res = await hook(raw, headers)
      expect([res.statusCode, res.json().message]).toEqual([401, 'INVALID_SIGNATURE'])
    }
    // The signature is of the bytes: the same JSON re-serialised with a space is another body.
    const res = await hook(raw.replace(':', ': '), { signature: mootaSignature(SECRET, raw) })
    expect(res.statusCode).toBe(401)
    expect(await stored()).toBe(count)
    expect(await balanceOf(app, shop)).toBe(0)
  })

  it('never credits a debit (DB), even of a pending total', async () => {
    const shop = await createReseller(app)
    const t = await topUp(shop, 70_000)
    const debit = { ...moota.credit(ACCOUNT, t.total), type: 'DB' as const }
    expect(await push([debit])).toMatchObject({ matched: 0, unmatched: 1 })
    const match = await app.inject({
      method: 'POST',
      url: `/api/admin/v1/bank-mutations/${(await mutationOf(debit.mutation_id)).id}/match`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { topup_reference: t.reference },
    })
    expect(match.statusCode).toBe(409)
    expect(await balanceOf(app, shop)).toBe(0)
  })

  it('credits nothing more when a statement brings the same transfer again, nor when it is imported twice', async () => {
    const shop = await createReseller(app)
    const t = await topUp(shop, 80_000)
    expect((await push([moota.credit(ACCOUNT, t.total)])).matched).toBe(1)
    const other = await topUp(shop, 90_000)
    const csv = `date,description,amount,type\n2026-12-06,"TRSF CR ${t.total}, BUDI",${t.total}.00,CR\n2026-12-06,TRSF CR,${other.total},CR\n2026-12-06,ADMIN FEE,6500,DB\n`
    const first = await importCsv(csv)
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json().data).toEqual({ rows: 3, matched: 1, unmatched: 1, duplicate: 1, repeated: 0 })
    const again = await importCsv(csv)
    expect(again.json().data).toEqual({ rows: 3, matched: 0, unmatched: 0, duplicate: 0, repeated: 3 })
    expect(await balanceOf(app, shop)).toBe(t.total + other.total)
    const bad = await importCsv('date,description,amount,type\n2026-12-06,x,12.5,CR\n')
    expect([bad.statusCode, bad.json().errors]).toEqual([422, { 'line 2': ['amount must be whole Rupiah (digits, optionally .00)'] }])
  })

  it('keeps a total to one live top-up, and one top-up to one mutation, whoever matches', async () => {
    const [a, b] = [await createReseller(app), await createReseller(app)]
    const tops = await Promise.all(Array.from({ length: 8 }, (_, i) => topUp(i % 2 ? a : b, 40_000)))
    expect(new Set(tops.map((t) => t.total)).size).toBe(8)
    const [t] = tops
    // Two transfers of the same total race (paid twice, or seen under two ids): one credits, the other waits as a duplicate.
    const results = await Promise.all([push([moota.credit(ACCOUNT, t.total)]), push([moota.credit(ACCOUNT, t.total)])])
    expect(results.map((r) => r.matched).sort()).toEqual([0, 1])
    const second = await ctx.db
      .selectFrom('bank_mutations')
      .selectAll()
      .where('amount', '=', t.total)
      .where('status', '=', 'duplicate')
      .executeTakeFirstOrThrow()
    const asOperator = (id: number, topup_reference: string) =>
      app.inject({
        method: 'POST',
        url: `/api/admin/v1/bank-mutations/${id}/match`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { topup_reference },
      })
    // Nor one top-up two: the paid top-up refuses a second mutation.
    const twice = await asOperator(second.id, t.reference)
    expect([twice.statusCode, twice.json().errors]).toEqual([409, { topup_reference: ['is paid'] }])
    // Nor two top-ups one mutation: the matched one refuses another top-up, and concurrent operators credit once.
    const matched = await ctx.db
      .selectFrom('bank_mutations')
      .select('id')
      .where('amount', '=', t.total)
      .where('status', '=', 'matched')
      .executeTakeFirstOrThrow()
    expect((await asOperator(matched.id, tops[1].reference)).statusCode).toBe(409)
    const racing = await Promise.all([asOperator(second.id, tops[2].reference), asOperator(second.id, tops[3].reference)])
    expect(racing.map((r) => r.statusCode).sort()).toEqual([200, 409])
    const paid = await ctx.db
      .selectFrom('topups')
      .select('reference')
      .where('status', '=', 'paid')
      .where(
        'reference',
        'in',
        tops.map((x) => x.reference),
      )
      .execute()
    expect(paid).toHaveLength(2)
    const credited = (await balanceOf(app, a)) + (await balanceOf(app, b))
    expect(credited).toBe(t.total + second.amount)
  })

  it('credits a transfer that comes after expiry, within 7 days, once; later, an operator decides', async () => {
    const shop = await createReseller(app)
    const late = await topUp(shop, 110_000)
    const lapsed = await topUp(shop, 120_000)
    await sql`UPDATE topups SET expires_at = now() - interval '2 days' WHERE reference = ${late.reference}`.execute(ctx.db)
    await sql`UPDATE topups SET expires_at = now() - interval '8 days' WHERE reference = ${lapsed.reference}`.execute(ctx.db)
    const lateTransfer = moota.credit(ACCOUNT, late.total)
    expect((await push([lateTransfer, lateTransfer])).matched).toBe(1)
    expect((await push([moota.credit(ACCOUNT, lapsed.total)])).unmatched).toBe(1)
    expect(await balanceOf(app, shop)).toBe(late.total)
    const page = await app.inject({ method: 'GET', url: new URL(late.payment_url).pathname })
    expect(page.body).toContain('id="outcome"')
  })

  it('answers 503 TRY_AGAIN_LATER with Retry-After when every code of an amount is reserved', async () => {
    const shop = await createReseller(app)
    const holder = await topUp(shop, 30_000)
    const id = (await ctx.db.selectFrom('topups').select('id').where('reference', '=', holder.reference).executeTakeFirstOrThrow()).id
    await sql`INSERT INTO transfer_totals (account_number, total, topup_id, reserved_until)
      SELECT ${ACCOUNT}, 250000 + g, ${id}, now() + interval '3 hours' FROM generate_series(1, 999) g
      ON CONFLICT DO NOTHING`.execute(ctx.db)
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/balance',
      headers: shop.headers,
      payload: { amount: 250_000, channel: 'BCA', ref_id: 'full' },
    })
    expect([res.statusCode, res.json().message]).toEqual([503, 'TRY_AGAIN_LATER'])
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(3 * 3600 - 120)
    // Nothing stored: the ref_id is still free once a code frees.
    await sql`UPDATE transfer_totals SET reserved_until = now() - interval '1 second' WHERE total = 250777`.execute(ctx.db)
    expect((await topUp(shop, 250_000, 'full')).total).toBe(250_777)
  })

  it('has the simulator push the transfer from the instructions page, outside production', async () => {
    const shop = await createReseller(app)
    const t = await topUp(shop, 75_000)
    const path = new URL(t.payment_url).pathname
    const page = await app.inject({ method: 'GET', url: path })
    const confirm = /name="confirm" value="([^"]+)"/.exec(page.body)![1]!
    const forged = await app.inject({
      method: 'POST',
      url: `${path}/simulate`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'confirm=nope',
    })
    expect(forged.statusCode).toBe(401)
    const res = await app.inject({
      method: 'POST',
      url: `${path}/simulate`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ confirm }).toString(),
    })
    expect([res.statusCode, res.headers.location]).toEqual([303, path])
    expect(await balanceOf(app, shop)).toBe(t.total)
  })

  it('lets an operator match an odd amount (credited as it came) or ignore a credit, each in the audit log', async () => {
    const shop = await createReseller(app)
    const t = await topUp(shop, 100_000)
    const odd = moota.credit(ACCOUNT, 100_000)
    const stray = moota.credit(ACCOUNT, 777)
    await push([odd, stray])
    const list = await admin(app, 'GET', '/bank-mutations?status=unmatched')
    expect(list.map((m: { mutation_id: string }) => m.mutation_id)).toEqual(expect.arrayContaining([odd.mutation_id, stray.mutation_id]))
    const id = (await mutationOf(odd.mutation_id)).id
    const matched = await admin(app, 'POST', `/bank-mutations/${id}/match`, { topup_reference: t.reference })
    expect(matched).toMatchObject({ status: 'matched', matched_by: 'operator', credited_amount: 100_000, topup_reference: t.reference })
    expect(matched.note).toMatch(/transferred 100000, the top-up's total was/)
    expect(await balanceOf(app, shop)).toBe(100_000)
    const ignored = await admin(app, 'POST', `/bank-mutations/${(await mutationOf(stray.mutation_id)).id}/ignore`, {
      note: 'bank interest',
    })
    expect(ignored).toMatchObject({ status: 'ignored', note: 'bank interest' })
    const logged = await sql<{ action: string }>`SELECT action FROM audit_log WHERE target_type = 'bank_mutations' ORDER BY id`.execute(
      ctx.db,
    )
    expect(logged.rows.map((r) => r.action)).toEqual(expect.arrayContaining(['adminMatchBankMutation', 'adminIgnoreBankMutation']))
  })

  it('refuses to start in production while a bank channel is active without MOOTA_WEBHOOK_SECRET', async () => {
    const production = (secret?: string) => ({
      ...ctx,
      config: withConfig(ctx.config, { appEnv: 'production', mootaWebhookSecret: secret }),
    })
    await expect(checkMootaSecret(ctx.db, production())).rejects.toThrow(
      /MOOTA_WEBHOOK_SECRET: required while a bank_transfer channel is active \(BCA\)/,
    )
    await expect(checkMootaSecret(ctx.db, production(SECRET))).resolves.toBeUndefined()
    // A worker receives no pushes: it starts without the secret.
    const worker = { ...ctx, config: withConfig(ctx.config, { appEnv: 'production', mootaWebhookSecret: undefined, role: 'worker' }) }
    await expect(checkMootaSecret(ctx.db, worker)).resolves.toBeUndefined()
    await admin(app, 'PATCH', '/channels/BCA', { active: false })
    await expect(checkMootaSecret(ctx.db, production())).resolves.toBeUndefined()
    await admin(app, 'PATCH', '/channels/BCA', { active: true })
  })

  it('an operator retires a pending transfer at once: expired, a late transfer within 7 days still credits it once', async () => {
    const shop = await createReseller(app)
    const t = await topUp(shop, 70_000)
    const expired = await admin(app, 'POST', `/topups/${t.reference}/expire`)
    expect(expired).toMatchObject({ reference: t.reference, status: 'expired' })
    expect(Date.parse(expired.expires_at)).toBeLessThanOrEqual(Date.now())
    const again = await app.inject({
      method: 'POST',
      url: `/api/admin/v1/topups/${t.reference}/expire`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect([again.statusCode, again.json().message]).toEqual([409, 'INVALID_STATE'])
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/admin/v1/topups/NO-SUCH-REF/expire',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect([unknown.statusCode, unknown.json().message]).toEqual([404, 'TOPUP_NOT_FOUND'])
    // Its total is still reserved: the money that comes after is this top-up's, once.
    const credit = moota.credit(ACCOUNT, t.total)
    await push([credit])
    await push([credit])
    expect(await balanceOf(app, shop)).toBe(t.total)
  })

  it('without MOOTA_WEBHOOK_SECRET the hook answers 503 and stores nothing', async () => {
    const bare = await createTestApp()
    try {
      const raw = JSON.stringify([moota.credit(ACCOUNT, 10_123)])
      const res = await bare.app.inject({
        method: 'POST',
        url: '/api/hooks/moota',
        headers: { 'content-type': 'application/json', signature: mootaSignature(SECRET, raw) },
        payload: raw,
      })
      expect([res.statusCode, res.json().message]).toEqual([503, 'SERVICE_UNAVAILABLE'])
      const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM bank_mutations`.execute(bare.ctx.db)
      expect(Number(rows[0]!.n)).toBe(0)
    } finally {
      await bare.close()
    }
  })

  it('leaves every balance equal to its ledger, and every paid top-up credited once', async () => {
    await assertInvariants(ctx.db)
    const twice = await sql`SELECT topup_id FROM bank_mutations WHERE status = 'matched' GROUP BY topup_id HAVING count(*) > 1`.execute(
      ctx.db,
    )
    expect(twice.rows).toEqual([])
  })
})
