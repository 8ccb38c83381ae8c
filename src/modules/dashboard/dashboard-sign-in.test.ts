import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { visitor } from '../../../test/console.js'
import { PASSWORD, dashboardVisitor, signIn } from '../../../test/dashboard.js'
import { createReseller } from '../../../test/factory.js'
import type { App } from '../../http/server.js'
import { minuteClock } from '../../../test/eventually.js'

// Sign-in answers alike whether the email is a user's or nobody's, locked or not: status, page and
// headers but the typed email and the form's token, so nobody learns which emails exist.

const { app } = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '1000' })
let n = 0
const email = (who: string) => `${who}-${++n}@sign-in.example`

/** What a visitor sees, with what differs by construction (the typed email, the CSRF token) masked. */
async function answer(on: App, who: string, password: string) {
  const v = visitor(on)
  await v.get('/dashboard/sign-in')
  const res = await on.inject({
    method: 'POST',
    url: '/dashboard/sign-in',
    headers: { cookie: [...v.cookies].map(([k, val]) => `${k}=${val}`).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: v.csrf, email: who, password }).toString(),
  })
  const body = res.body.replaceAll(who, '<email>').replace(/name="_csrf" value="[^"]+"/g, 'name="_csrf" value="<token>"')
  return { status: res.statusCode, body, retryAfter: res.headers['retry-after'] !== undefined }
}

describe('sign-in tells nothing about which emails exist', () => {
  it('a wrong password answers like an unknown email', async () => {
    const shop = await createReseller(app)
    const known = email('known')
    await dashboardVisitor(app, shop.id, known)
    const unknown = email('unknown')
    const [a, b] = [await answer(app, known, 'wrong password!'), await answer(app, unknown, 'wrong password!')]
    expect(a.status).toBe(401)
    expect(a).toEqual(b)
  })

  it('locks any email typed after ten failures, existing or not, with the same answer', async () => {
    const shop = await createReseller(app)
    const known = email('known')
    await dashboardVisitor(app, shop.id, known)
    const unknown = email('unknown')
    for (let i = 0; i < 10; i++) {
      const [a, b] = [await answer(app, known, `guess ${i} guess`), await answer(app, unknown, `guess ${i} guess`)]
      expect([a.status, b.status]).toEqual([401, 401])
    }
    const lockedKnown = await answer(app, known, 'guess 11 guess')
    const lockedUnknown = await answer(app, unknown, 'guess 11 guess')
    expect(lockedKnown.status).toBe(429)
    expect(lockedKnown).toEqual(lockedUnknown)
    // The right password of a locked email answers the same too: the lock does not tell it was right.
    expect(await answer(app, known, PASSWORD)).toEqual(lockedUnknown)
    // The lock is the email's: another email, known or not, still answers as usual.
    const colleague = email('colleague')
    await dashboardVisitor(app, shop.id, colleague)
    expect((await signIn(app, colleague)).res.status).toBe(303)
    expect((await answer(app, email('fresh'), 'wrong password!')).status).toBe(401)
  })

  it('counts every failure against the address alike, and still serves a right password from it', async () => {
    // The limit counts in fixed one-minute windows of the app's clock, which stays in one minute here.
    const strict = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '3' }, {}, { clock: minuteClock() })
    const shop = await createReseller(strict.app)
    const known = email('addr')
    await dashboardVisitor(strict.app, shop.id, known)
    const run = async (on: App, who: string) => {
      const seen: Array<Awaited<ReturnType<typeof answer>>> = []
      for (let i = 0; i < 5; i++) seen.push(await answer(on, who, 'whatever password'))
      return seen
    }
    // Each email on its own address budget (a fresh app for the unknown one), so the two runs compare.
    const knownRun = await run(strict.app, known)
    const other = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '3' }, {}, { clock: minuteClock() })
    const unknownRun = await run(other.app, email('nobody'))
    expect(knownRun.map((a) => a.status)).toEqual([401, 401, 401, 429, 429])
    expect(knownRun).toEqual(unknownRun)
    expect((await signIn(strict.app, known)).res.status).toBe(303)
  })
})
