import { expect } from 'vitest'
import type { AppContext } from '../src/context.js'
import type { OperatorRole } from '../src/db/schema.js'
import type { App } from '../src/http/server.js'
import { totpCode, totpStep } from '../src/modules/team/index.js'
import { hashPassword } from '../src/passwords.js'
import { visitor, type Visitor } from './console.js'

export const OPERATOR_PASSWORD = 'operator password 1'

let made = 0
/** A fresh email no other test of the run uses. */
export const operatorEmail = (who = 'op') => `${who}-${++made}-${process.pid}@team.example`

/** An active operator of `role` with OPERATOR_PASSWORD, straight in the database (no second factor yet). */
export async function operatorWithPassword(ctx: AppContext, role: OperatorRole, email = operatorEmail(role)) {
  return ctx.db
    .insertInto('operators')
    .values({
      email,
      name: `${role} person`,
      role,
      status: 'active',
      password_hash: await hashPassword(OPERATOR_PASSWORD),
      updated_at: new Date(),
    })
    .returning(['id', 'email', 'role'])
    .executeTakeFirstOrThrow()
}

/** A fresh visitor's email and password sign-in, optionally from another client address. */
export async function signInWithPassword(app: App, email: string, password = OPERATOR_PASSWORD, remoteAddress?: string) {
  const v = remoteAddress ? visitorFrom(app, remoteAddress) : visitor(app)
  await v.get('/console/sign-in')
  const res = await v.post('/console/sign-in', { email, password })
  return { v, res }
}

/** A console visitor whose requests come from `remoteAddress` (inject's default is 127.0.0.1). */
export function visitorFrom(app: App, remoteAddress: string): Visitor {
  const inject = app.inject.bind(app)
  const from = Object.create(app) as App
  Object.assign(from, { inject: (options: object) => inject({ ...options, remoteAddress } as never) })
  return visitor(from)
}

/** The app's code now (or `steps` later): what the phone would show. */
export const codeOf = (secret: string, steps = 0) => totpCode(secret, totpStep(new Date()) + steps)

/** The enrolment page's secret as typed out for manual entry (groups of four), without its spaces. */
export function secretOnPage(body: string): string {
  const found = /id="totp-secret">([A-Z2-7 ]+)</.exec(body)
  expect(found, 'the enrolment page shows the secret').not.toBeNull()
  return found![1].replace(/\s/g, '')
}

/** Through the enrolment pages of a visitor at that step: the secret read off the page, a first code, the recovery codes. */
export async function enrolThroughPages(v: Visitor) {
  const page = await v.get('/console/enrol')
  expect(page.status, page.body.slice(0, 300)).toBe(200)
  const secret = secretOnPage(page.body)
  const confirmed = await v.post('/console/enrol', { code: codeOf(secret) })
  expect(confirmed.status, confirmed.body.slice(0, 300)).toBe(200)
  const recoveryCodes = [...confirmed.body.matchAll(/<li>([0-9a-f]{5}-[0-9a-f]{5})<\/li>/g)].map((m) => m[1])
  expect(recoveryCodes).toHaveLength(10)
  return { secret, recoveryCodes }
}

/** An operator of `role` signed in on the console: enrolled through the pages first when the role needs it. */
export async function signedInOperator(app: App, ctx: AppContext, role: OperatorRole) {
  const operator = await operatorWithPassword(ctx, role)
  const { v, res } = await signInWithPassword(app, operator.email)
  expect(res.status, res.body.slice(0, 300)).toBe(303)
  const enrolled = res.location === '/console/enrol' ? await enrolThroughPages(v) : undefined
  return { v, operator, enrolled }
}
