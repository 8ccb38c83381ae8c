import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import type { Visitor } from '../../../test/console.js'
import { PASSWORD, dashboardVisitor, signIn } from '../../../test/dashboard.js'
import { createReseller } from '../../../test/factory.js'
import { operatorWithToken } from '../../../test/team.js'
import type { App } from '../../http/server.js'
import { sha256Hex } from '../../vault.js'
import { otpauthUri, totpCode, totpStep } from '../team/index.js'
import { qrSvg } from '../team/index.js'

// docs/design.md §11d, §13: an owner's own two-step verification, at sign-in with one account or
// several, and the operator's reset for a lost phone. The app's clock moves on by a step whenever a
// test needs a fresh code, since each code works once.

let stepsAhead = 0
const clock = { now: () => new Date(Date.now() + stepsAhead * 30_000) }
const { app, ctx } = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '1000' }, {}, { clock })
let n = 0
const email = (who: string) => `${who}-${++n}@dua-langkah.example`
/** The code the app shows now, after moving the clock to a step no code was used in yet. */
const freshCode = (secret: string) => totpCode(secret, totpStep(new Date(Date.now() + ++stepsAhead * 30_000)))
const userOf = (address: string, accountId?: number) =>
  ctx.db
    .selectFrom('reseller_users')
    .selectAll()
    .where('email', '=', address)
    .$if(accountId !== undefined, (q) => q.where('account_id', '=', accountId!))
    .executeTakeFirstOrThrow()

/** Turns it on from the account page: answers the secret read off the enrolment page and the recovery codes. */
async function enrol(v: Visitor) {
  await v.get('/dashboard/password')
  const started = await v.post('/dashboard/two-step', {})
  expect([started.status, started.location], started.body.slice(0, 500)).toEqual([303, '/dashboard/two-step'])
  const page = await v.get('/dashboard/two-step')
  const secret = /id="totp-secret">([A-Z2-7 ]+)</.exec(page.body)![1]!.replaceAll(' ', '')
  const done = await v.post('/dashboard/two-step/confirm', { code: freshCode(secret) })
  expect(done.status, done.body.slice(-800)).toBe(200)
  const recoveryCodes = [...done.body.matchAll(/<li><code>([0-9a-f]{5}-[0-9a-f]{5})<\/code><\/li>/g)].map((m) => m[1]!)
  return { page, secret, recoveryCodes }
}

/** Password, then the code page: answers the visitor and what the code's POST answered. */
async function signInWithCode(address: string, code: string, on: App = app) {
  const { v, res } = await signIn(on, address)
  expect([res.status, res.location]).toEqual([303, '/dashboard/sign-in/code'])
  await v.get('/dashboard/sign-in/code')
  return { v, res: await v.post('/dashboard/sign-in/code', { code }) }
}

const failuresOf = async (address: string) =>
  (
    await ctx.db
      .selectFrom('reseller_sign_in_failures')
      .select(['failures', 'locked_until'])
      .where('email_hash', '=', sha256Hex(address))
      .executeTakeFirst()
  )?.failures ?? 0

describe('an owner turns two-step verification on', () => {
  it('from the account page: a QR code of the otpauth URI drawn as SVG, the secret typed out, a first code, ten recovery codes once', async () => {
    const shop = await createReseller(app, { name: 'Toko Dua Langkah' })
    const owner = email('owner')
    const v = await dashboardVisitor(app, shop.id, owner)
    const account = await v.get('/dashboard/password')
    expect(account.body).toContain('id="two-step"')
    expect(/id="two-step-state">mati</.test(account.body)).toBe(true)

    await v.post('/dashboard/two-step', {})
    const page = await v.get('/dashboard/two-step')
    const secret = /id="totp-secret">([A-Z2-7 ]+)</.exec(page.body)![1]!.replaceAll(' ', '')
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    // The QR code is the URI of this secret, named by the service's host and the email with its account.
    const uri = otpauthUri('127.0.0.1', `${owner} (Toko Dua Langkah)`, secret)
    expect(page.body).toContain(await qrSvg(uri))
    expect(page.body).toMatch(/<figure class="qr" id="qr"[^>]*><svg /)
    // Kept sealed under APP_KEY, and not required until confirmed.
    const pending = await userOf(owner)
    expect([pending.totp_enabled_at, pending.totp_secret_enc?.includes(secret)]).toEqual([null, false])
    expect((await signIn(app, owner)).res.location).toBe('/dashboard')

    // A wrong code: the same page, the refusal next to the field, still off.
    const wrong = await v.post('/dashboard/two-step/confirm', { code: totpCode(secret, totpStep(clock.now()) + 5) })
    expect([wrong.status, wrong.body.includes('id="code-error"'), wrong.body.includes('<svg ')]).toEqual([422, true, true])
    expect(wrong.body).toContain('Kode tidak cocok')
    expect((await userOf(owner)).totp_enabled_at).toBeNull()

    const done = await v.post('/dashboard/two-step/confirm', { code: freshCode(secret) })
    const codes = [...done.body.matchAll(/<li><code>([0-9a-f]{5}-[0-9a-f]{5})<\/code><\/li>/g)].map((m) => m[1])
    expect([done.status, codes.length, new Set(codes).size]).toEqual([200, 10, 10])
    const on = await userOf(owner)
    expect([on.totp_enabled_at !== null, on.recovery_code_hashes.length]).toEqual([true, 10])
    // Shown once: the enrolment page is gone, the account page says it is on with ten codes left.
    expect((await v.get('/dashboard/two-step')).location).toBe('/dashboard/password')
    const after = await v.get('/dashboard/password')
    expect([/id="two-step-state">aktif</.test(after.body), after.body.includes('Sisa kode pemulihan: 10.')]).toEqual([true, true])
    expect(after.body).not.toContain(codes[0])
    // Turning on again while on is refused, and changes nothing.
    expect((await v.post('/dashboard/two-step', {})).status).toBe(409)
    expect((await userOf(owner)).totp_secret_enc).toBe(on.totp_secret_enc)
    // In English too.
    expect((await v.get('/dashboard/password?lang=en')).body).toContain('Two-step verification')
    await v.get('/dashboard/password?lang=id')
  })

  it('is not for staff: no section, and its forms are a 403', async () => {
    const shop = await createReseller(app)
    const staff = email('staff')
    const v = await dashboardVisitor(app, shop.id, staff, 'staff')
    const page = await v.get('/dashboard/password')
    expect([page.status, page.body.includes('id="two-step"'), page.body.includes('/dashboard/two-step')]).toEqual([200, false, false])
    for (const [url, form] of [
      ['/dashboard/two-step', {}],
      ['/dashboard/two-step/confirm', { code: '123456' }],
      ['/dashboard/two-step/off', { code_or_password: PASSWORD }],
    ] as const) {
      const res = await v.post(url, form)
      expect([res.status, res.body.includes('OWNER_ONLY') || res.body.includes('Hanya pemilik')], url).toEqual([403, true])
    }
    expect((await v.get('/dashboard/two-step')).status).toBe(403)
    const row = await userOf(staff)
    expect([row.totp_secret_enc, row.totp_enabled_at]).toEqual([null, null])
  })
})

describe('signing in with two-step verification on', () => {
  it('after the password only the code page opens; a code works once; a wrong one is refused and counted', async () => {
    const shop = await createReseller(app, { name: 'Toko Kode' })
    const owner = email('signin')
    const { secret } = await enrol(await dashboardVisitor(app, shop.id, owner))

    const { v, res } = await signIn(app, owner)
    expect([res.status, res.location]).toEqual([303, '/dashboard/sign-in/code'])
    // Nothing but the code page: every other page sends the visitor to sign in.
    for (const url of ['/dashboard', '/dashboard/password', '/dashboard/accounts', '/dashboard/api-key']) {
      expect((await v.get(url)).location, url).toBe('/dashboard/sign-in')
    }
    expect((await v.post('/dashboard/two-step', {})).location).toBe('/dashboard/sign-in')
    const form = await v.get('/dashboard/sign-in/code')
    expect([form.status, form.body.includes('id="sign-in-code-form"'), form.body.includes('id="several-accounts"')]).toEqual([
      200,
      true,
      false,
    ])

    const code = freshCode(secret)
    const wrongCode = code === '000000' ? '111111' : '000000'
    const wrong = await v.post('/dashboard/sign-in/code', { code: wrongCode })
    expect([wrong.status, wrong.body.includes('id="code-error"')]).toEqual([401, true])
    expect(wrong.body).toContain('Kode salah atau sudah dipakai')
    expect(await failuresOf(owner)).toBe(1)
    expect((await v.get('/dashboard')).location).toBe('/dashboard/sign-in')

    const right = await v.post('/dashboard/sign-in/code', { code })
    expect([right.status, right.location]).toEqual([303, '/dashboard'])
    expect((await v.get('/dashboard')).body).toContain('Toko Kode')
    // A right code forgets the failures, like a right password.
    expect(await failuresOf(owner)).toBe(0)
    // Signed in: the code page has nothing more to ask.
    expect((await v.get('/dashboard/sign-in/code')).location).toBe('/dashboard/sign-in')

    // The same code again, on another sign-in within its 30 seconds: refused as a replay.
    const replay = await signInWithCode(owner, code)
    expect([replay.res.status, replay.res.body.includes('id="code-error"')]).toEqual([401, true])
    // A code of the step before the one used is refused too: steps only move forward.
    expect((await replay.v.post('/dashboard/sign-in/code', { code: totpCode(secret, totpStep(clock.now()) - 1) })).status).toBe(401)
    expect((await replay.v.get('/dashboard')).location).toBe('/dashboard/sign-in')
  })

  it('locks the email after ten failures, passwords and codes together, and a right password does not forget them', async () => {
    const shop = await createReseller(app)
    const owner = email('locked')
    const { secret } = await enrol(await dashboardVisitor(app, shop.id, owner))
    expect((await signIn(app, owner, 'not the password')).res.status).toBe(401)
    const { v } = await signIn(app, owner)
    await v.get('/dashboard/sign-in/code')
    const real = totpCode(secret, totpStep(clock.now()) + 1)
    const guesses = Array.from({ length: 9 }, (_, i) => String(100_000 + i)).filter((g) => g !== real)
    for (const guess of guesses.slice(0, 5)) expect((await v.post('/dashboard/sign-in/code', { code: guess })).status).toBe(401)
    // The right password again (a new code page) keeps the count: it proves nothing about the codes.
    const again = (await signIn(app, owner)).v
    await again.get('/dashboard/sign-in/code')
    for (const guess of guesses.slice(5, 8)) expect((await again.post('/dashboard/sign-in/code', { code: guess })).status).toBe(401)
    expect(await failuresOf(owner)).toBe(9)
    expect((await again.post('/dashboard/sign-in/code', { code: '999999' === real ? '999998' : '999999' })).status).toBe(401)
    // Ten: locked, the right code refused, and so is the right password.
    const locked = await again.post('/dashboard/sign-in/code', { code: freshCode(secret) })
    expect([locked.status, locked.body.includes('id="sign-in-locked"')]).toEqual([429, true])
    expect((await signIn(app, owner)).res.status).toBe(429)
    expect((await again.get('/dashboard')).location).toBe('/dashboard/sign-in')
  })

  it('counts a wrong code against the address like a wrong password', async () => {
    const strict = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '3' }, {}, { clock })
    const shop = await createReseller(strict.app)
    const owner = email('address')
    await enrol(await dashboardVisitor(strict.app, shop.id, owner))
    const { v } = await signIn(strict.app, owner)
    await v.get('/dashboard/sign-in/code')
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await v.post('/dashboard/sign-in/code', { code: `12345${i}` })).status)
    expect(statuses).toEqual([401, 401, 401, 429, 429])
  })

  it('takes a recovery code once', async () => {
    const shop = await createReseller(app)
    const owner = email('recovery')
    const { recoveryCodes } = await enrol(await dashboardVisitor(app, shop.id, owner))
    const used = await signInWithCode(owner, ` ${recoveryCodes[3]!.toUpperCase()} `)
    expect(used.res.location).toBe('/dashboard')
    expect((await used.v.get('/dashboard')).status).toBe(200)
    expect((await userOf(owner)).recovery_code_hashes).toHaveLength(9)
    expect((await signInWithCode(owner, recoveryCodes[3]!)).res.status).toBe(401)
    expect((await used.v.get('/dashboard/password')).body).toContain('Sisa kode pemulihan: 9.')
  })

  it('asks the password again once the code page has waited ten minutes', async () => {
    const shop = await createReseller(app)
    const owner = email('slow')
    const { secret } = await enrol(await dashboardVisitor(app, shop.id, owner))
    const { v } = await signIn(app, owner)
    await v.get('/dashboard/sign-in/code')
    const pending = await ctx.db
      .selectFrom('reseller_sessions')
      .select(['stage', 'expires_at'])
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow()
    expect(pending.stage).toBe('second_factor')
    expect(pending.expires_at.getTime() - Date.now()).toBeLessThanOrEqual(10 * 60_000 + 5_000)
    await sql`UPDATE reseller_sessions SET expires_at = now() - interval '1 second' WHERE stage = 'second_factor'`.execute(ctx.db)
    expect((await v.post('/dashboard/sign-in/code', { code: freshCode(secret) })).location).toBe('/dashboard/sign-in')
    expect((await v.get('/dashboard')).location).toBe('/dashboard/sign-in')
  })
})

describe('one email, several accounts', () => {
  it('a code opens its account and those without two-step verification; another with it needs its own code', async () => {
    const [alpha, beta, gamma] = [
      await createReseller(app, { name: 'Alpha Dua' }),
      await createReseller(app, { name: 'Beta Dua' }),
      await createReseller(app, { name: 'Gamma Dua' }),
    ]
    const person = email('multi')
    const alphaSecret = (await enrol(await dashboardVisitor(app, alpha.id, person))).secret
    await dashboardVisitor(app, beta.id, person)
    const gammaSecret = (await enrol(await dashboardVisitor(app, gamma.id, person))).secret
    const [a, b, c] = [await userOf(person, alpha.id), await userOf(person, beta.id), await userOf(person, gamma.id)]

    const pending = (await signIn(app, person)).v
    expect((await pending.get('/dashboard/sign-in/code')).body).toContain('id="several-accounts"')
    const viaAlpha = await signInWithCode(person, freshCode(alphaSecret))
    expect(viaAlpha.res.location).toBe('/dashboard/accounts')
    const chooser = (await viaAlpha.v.get('/dashboard/accounts')).body
    expect([chooser.includes('Alpha Dua'), chooser.includes('Beta Dua'), chooser.includes('Gamma Dua')]).toEqual([true, true, false])
    // It looks at the account whose code was typed, switches to the one without, never to the other with.
    expect((await viaAlpha.v.get('/dashboard')).body).toContain('Alpha Dua')
    expect((await viaAlpha.v.post('/dashboard/accounts', { user_id: String(b.id) })).location).toBe('/dashboard')
    expect((await viaAlpha.v.get('/dashboard')).body).toContain('Beta Dua')
    await viaAlpha.v.get('/dashboard/accounts')
    expect((await viaAlpha.v.post('/dashboard/accounts', { user_id: String(c.id) })).status).toBe(404)
    expect((await viaAlpha.v.post('/dashboard/accounts', { user_id: String(a.id) })).location).toBe('/dashboard')

    const viaGamma = await signInWithCode(person, freshCode(gammaSecret))
    const other = (await viaGamma.v.get('/dashboard/accounts')).body
    expect([other.includes('Alpha Dua'), other.includes('Beta Dua'), other.includes('Gamma Dua')]).toEqual([false, true, true])
    expect((await viaGamma.v.get('/dashboard')).body).toContain('Gamma Dua')
  })
})

describe('turning it off', () => {
  it('takes a current code or the password; a wrong one is refused next to the field and counted', async () => {
    const shop = await createReseller(app)
    const owner = email('off')
    const v = await dashboardVisitor(app, shop.id, owner)
    const { secret } = await enrol(v)
    await v.get('/dashboard/password')
    const wrong = await v.post('/dashboard/two-step/off', { code_or_password: 'not my password' })
    expect([wrong.status, wrong.body.includes('id="code-or-password-error"')]).toEqual([422, true])
    expect(wrong.body).toContain('Bukan kode yang berlaku')
    expect(await failuresOf(owner)).toBe(1)
    expect((await userOf(owner)).totp_enabled_at).not.toBeNull()

    const off = await v.post('/dashboard/two-step/off', { code_or_password: PASSWORD })
    expect(off.location).toBe('/dashboard/password?done=two-step-off')
    const row = await userOf(owner)
    expect([row.totp_enabled_at, row.totp_secret_enc, row.recovery_code_hashes]).toEqual([null, null, []])
    expect((await v.get('/dashboard/password?done=two-step-off')).body).toContain('Verifikasi dua langkah dimatikan')
    expect((await signIn(app, owner)).res.location).toBe('/dashboard')

    // On again (a new secret), and off with a code of the app this time.
    const second = await enrol(v)
    expect(second.secret).not.toBe(secret)
    await v.get('/dashboard/password')
    expect((await v.post('/dashboard/two-step/off', { code_or_password: freshCode(second.secret) })).location).toBe(
      '/dashboard/password?done=two-step-off',
    )
    expect((await userOf(owner)).totp_enabled_at).toBeNull()
  })
})

describe('an operator resets a dashboard user’s second factor', () => {
  it('for a lost phone: off, signed out everywhere, password alone next time, and audit-logged', async () => {
    const shop = await createReseller(app, { name: 'Toko Hilang' })
    const owner = email('lost')
    const v = await dashboardVisitor(app, shop.id, owner)
    await enrol(v)
    const user = await userOf(owner)
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}` }
    const listed = await app.inject({ method: 'GET', url: `/api/admin/v1/resellers/${shop.id}/users`, headers })
    expect(listed.json().data).toMatchObject([{ id: user.id, second_factor: true }])

    const admin = await operatorWithToken(ctx, 'admin')
    const url = `/api/admin/v1/resellers/${shop.id}/users/${user.id}/second-factor/reset`
    // A viewer may not; another account's user is not this account's.
    const viewer = await operatorWithToken(ctx, 'viewer')
    expect((await app.inject({ method: 'POST', url, headers: viewer.headers })).json().message).toBe('FORBIDDEN_FOR_ROLE')
    const elsewhere = await createReseller(app)
    const foreign = await app.inject({
      method: 'POST',
      url: `/api/admin/v1/resellers/${elsewhere.id}/users/${user.id}/second-factor/reset`,
      headers: admin.headers,
    })
    expect([foreign.statusCode, foreign.json().message]).toEqual([404, 'USER_NOT_FOUND'])
    expect((await userOf(owner)).totp_enabled_at).not.toBeNull()

    const reset = await app.inject({ method: 'POST', url, headers: admin.headers })
    expect([reset.statusCode, reset.json().data]).toEqual([200, { id: user.id, email: owner, second_factor: false }])
    const row = await userOf(owner)
    expect([row.totp_enabled_at, row.totp_secret_enc, row.recovery_code_hashes]).toEqual([null, null, []])
    expect((await v.get('/dashboard')).location).toBe('/dashboard/sign-in')
    expect((await signIn(app, owner)).res.location).toBe('/dashboard')

    const logged = await ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'adminResetDashboardUserSecondFactor')
      .where('target_id', '=', String(user.id))
      .execute()
    expect(logged).toHaveLength(1)
    expect(logged[0]).toMatchObject({ actor_id: admin.id, role: 'admin', target_type: 'reseller_users', change: 'update' })
    // The secret and the recovery codes' digests are logged as changed, never their values.
    const changes = logged[0]!.changes as Record<string, { before: unknown; after: unknown }>
    expect(changes.totp_secret_enc).toEqual({ before: '[redacted]', after: null })
    expect(changes.recovery_code_hashes?.before).toBe('[redacted]')
    expect(changes.totp_enabled_at?.after).toBeNull()

    // Again, with nothing left to forget: answered the same.
    expect((await app.inject({ method: 'POST', url, headers })).statusCode).toBe(200)
  })
})
