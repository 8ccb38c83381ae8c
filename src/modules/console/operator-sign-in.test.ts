import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { visitor } from '../../../test/console.js'
import {
  codeOf,
  enrolThroughPages,
  OPERATOR_PASSWORD,
  operatorEmail,
  operatorWithPassword,
  secretOnPage,
  signInWithPassword,
} from '../../../test/console-team.js'
import type { App } from '../../http/server.js'
import { minuteClock } from '../../../test/eventually.js'

// The console's sign-in by operators (docs/design.md §11d): password, then the second factor its
// role needs (enrolled at first sign-in), each code good once; failures locked per email and address.

const { app, ctx } = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '1000' })

/** What a visitor sees of a failed sign-in, with what differs by construction (the typed email, the CSRF token) masked. */
async function answer(on: App, email: string, password: string, remoteAddress = '127.0.0.1') {
  const { res } = await signInWithPassword(on, email, password, remoteAddress)
  const body = res.body
    .replaceAll(email, '<email>')
    .replace(/name="_csrf" value="[^"]+"/g, 'name="_csrf" value="<token>"')
    .replace(/"csrf-token": "[^"]+"/, '"csrf-token": "<token>"')
  return { status: res.status, body }
}

describe('console sign-in with a second factor', () => {
  it('enrols an owner at first sign-in, then takes a code once; a wrong or replayed code is refused; a recovery code works once', async () => {
    const owner = await operatorWithPassword(ctx, 'owner')
    const first = await signInWithPassword(app, owner.email)
    expect([first.res.status, first.res.location]).toEqual([303, '/console/enrol'])
    // Until enrolled, the session reaches its next step only: pages and writes are sent to it.
    expect((await first.v.get('/console')).location).toBe('/console/enrol')
    expect((await first.v.get('/console/team')).location).toBe('/console/enrol')
    expect((await first.v.get('/console/sign-in/code')).location).toBe('/console/enrol')
    const page = await first.v.get('/console/enrol')
    expect(page.body).toContain('<svg')
    const shown = secretOnPage(page.body)
    // A code that is not the app's now: the same secret again, the reason under the field.
    const wrong = await first.v.post('/console/enrol', { code: codeOf(shown, -5) })
    expect(wrong.status).toBe(422)
    expect(wrong.body).toContain('id="code-error"')
    expect(secretOnPage(wrong.body)).toBe(shown)
    const { secret, recoveryCodes } = await enrolThroughPages(first.v)
    expect(secret).toBe(shown)
    const overview = await first.v.get('/console')
    expect(overview.status).toBe(200)
    expect(overview.body).toContain(`${owner.email} · owner`)
    expect((await first.v.post('/console/sign-out', {})).location).toBe('/console/sign-in')

    // Signed in again: the code step, and nothing else until it is done.
    const second = await signInWithPassword(app, owner.email)
    expect(second.res.location).toBe('/console/sign-in/code')
    expect((await second.v.get('/console/resellers')).location).toBe('/console/sign-in/code')
    expect((await second.v.get('/console/enrol')).location).toBe('/console/sign-in/code')
    const bad = await second.v.post('/console/sign-in/code', { code: codeOf(secret, -5) })
    expect([bad.status, bad.body.includes('id="code-error"')]).toEqual([401, true])
    // The enrolment used this step's code: the next step's is the one that signs in now.
    const code = codeOf(secret, 1)
    expect((await second.v.post('/console/sign-in/code', { code })).location).toBe('/console')
    expect((await second.v.get('/console')).status).toBe(200)

    // The same code again, in another sign-in: refused, a replay.
    const third = await signInWithPassword(app, owner.email)
    expect((await third.v.post('/console/sign-in/code', { code })).status).toBe(401)
    expect((await third.v.get('/console')).location).toBe('/console/sign-in/code')
    // A recovery code instead: good once.
    expect((await third.v.post('/console/sign-in/code', { code: recoveryCodes[0] })).location).toBe('/console')
    const fourth = await signInWithPassword(app, owner.email)
    expect((await fourth.v.post('/console/sign-in/code', { code: recoveryCodes[0] })).status).toBe(401)
    expect((await fourth.v.post('/console/sign-in/code', { code: ` ${recoveryCodes[1].toUpperCase()} ` })).location).toBe('/console')
    const row = await ctx.db.selectFrom('operators').select('recovery_code_hashes').where('id', '=', owner.id).executeTakeFirstOrThrow()
    expect(row.recovery_code_hashes).toHaveLength(8)
  })

  it('requires the enrolment of owners, admins and finance, not of support or viewers', async () => {
    for (const role of ['owner', 'admin', 'finance', 'support', 'viewer'] as const) {
      const operator = await operatorWithPassword(ctx, role)
      const { v, res } = await signInWithPassword(app, operator.email)
      const needs = ['owner', 'admin', 'finance'].includes(role)
      expect([role, res.location]).toEqual([role, needs ? '/console/enrol' : '/console'])
      expect([role, (await v.get('/console')).status]).toEqual([role, needs ? 303 : 200])
    }
    // Support may still turn one on from their own page; from then on, sign-in asks for the code.
    const support = await operatorWithPassword(ctx, 'support')
    const { v } = await signInWithPassword(app, support.email)
    await v.get('/console/me')
    expect((await v.post('/console/me/second-factor', {})).location).toBe('/console/enrol')
    await enrolThroughPages(v)
    expect((await signInWithPassword(app, support.email)).res.location).toBe('/console/sign-in/code')
  })
})

describe('console sign-in failures', () => {
  it('answers alike whether the email is an operator’s or nobody’s', async () => {
    const known = await operatorWithPassword(ctx, 'viewer')
    const [a, b] = [
      await answer(app, known.email, 'wrong password!', '10.9.0.1'),
      await answer(app, operatorEmail('nobody'), 'wrong password!', '10.9.0.1'),
    ]
    expect(a.status).toBe(401)
    expect(a).toEqual(b)
    expect(a.body).toContain('Wrong email or password.')
  })

  it('locks an email after ten failures from one address, not from another', async () => {
    const known = await operatorWithPassword(ctx, 'support')
    const unknown = operatorEmail('unknown')
    for (let i = 0; i < 10; i++) {
      const [a, b] = [
        await answer(app, known.email, `guess ${i} guess`, '10.9.1.1'),
        await answer(app, unknown, `guess ${i} guess`, '10.9.1.1'),
      ]
      expect([a.status, b.status]).toEqual([401, 401])
    }
    const lockedKnown = await answer(app, known.email, 'guess 11 guess', '10.9.1.1')
    expect(lockedKnown.status).toBe(429)
    expect(lockedKnown).toEqual(await answer(app, unknown, 'guess 11 guess', '10.9.1.1'))
    // The right password of a locked pair answers the same: the lock does not tell it was right.
    expect(await answer(app, known.email, OPERATOR_PASSWORD, '10.9.1.1')).toEqual(lockedKnown)
    // From another address the same email signs in: a guesser cannot lock the right person out.
    const elsewhere = await signInWithPassword(app, known.email, OPERATOR_PASSWORD, '10.9.1.2')
    expect([elsewhere.res.status, elsewhere.res.location]).toEqual([303, '/console'])
    const keys = await ctx.db.selectFrom('operator_sign_in_failures').select(['key_hash', 'locked_until']).execute()
    expect(keys.filter((k) => k.locked_until !== null).length).toBeGreaterThanOrEqual(2)
  })

  it('counts wrong passwords against the address too, and still serves a right password from it', async () => {
    // The limit counts in fixed one-minute windows of the app's clock, which stays in one minute here.
    const strict = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '3' }, {}, { clock: minuteClock() })
    const operator = await operatorWithPassword(strict.ctx, 'viewer')
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) statuses.push((await signInWithPassword(strict.app, operator.email, 'whatever password')).res.status)
    expect(statuses).toEqual([401, 401, 401, 429])
    expect((await signInWithPassword(strict.app, operator.email)).res.location).toBe('/console')
  })
})

describe('console sessions of operators', () => {
  it('ends every sign-in of a person at once when their role changes, they are removed, or their second factor is reset', async () => {
    const owner = visitor(app)
    await owner.get('/console/sign-in')
    await owner.post('/console/sign-in', { token: ADMIN_TOKEN })
    const person = await operatorWithPassword(ctx, 'support')
    const [a, b] = [await signInWithPassword(app, person.email), await signInWithPassword(app, person.email)]
    expect([(await a.v.get('/console')).status, (await b.v.get('/console')).status]).toEqual([200, 200])

    await owner.get(`/console/team/${person.id}`)
    expect((await owner.post(`/console/team/${person.id}`, { role: 'viewer' })).location).toBe(
      `/console/team/${person.id}?done=role-changed`,
    )
    for (const v of [a.v, b.v]) expect((await v.get('/console')).location).toBe('/console/sign-in')
    // Signed in again, with the new role.
    const again = await signInWithPassword(app, person.email)
    expect((await again.v.get('/console')).body).toContain(`${person.email} · viewer`)
    // A save that changes no role keeps them signed in.
    await owner.get(`/console/team/${person.id}`)
    await owner.post(`/console/team/${person.id}`, { role: 'viewer', name: 'Renamed' })
    expect((await again.v.get('/console')).status).toBe(200)

    // A reset second factor: signed out, and the next sign-in enrols again when the role needs it.
    await owner.post(`/console/team/${person.id}`, { role: 'finance' })
    const finance = await signInWithPassword(app, person.email)
    await enrolThroughPages(finance.v)
    expect((await finance.v.get('/console')).status).toBe(200)
    await owner.get(`/console/team/${person.id}`)
    expect((await owner.post(`/console/team/${person.id}/reset-second-factor`, {})).location).toContain('done=factor-reset')
    expect((await finance.v.get('/console')).location).toBe('/console/sign-in')
    expect((await signInWithPassword(app, person.email)).res.location).toBe('/console/enrol')

    // Removed: signed out at once, and the password no longer signs in (the answer of any wrong one).
    const last = await signInWithPassword(app, person.email)
    await owner.get(`/console/team/${person.id}`)
    expect((await owner.post(`/console/team/${person.id}/remove`, {})).location).toBe('/console/team?done=operator-removed')
    expect((await last.v.get('/console/enrol')).location).toBe('/console/sign-in')
    expect((await signInWithPassword(app, person.email)).res.status).toBe(401)
  })
})
