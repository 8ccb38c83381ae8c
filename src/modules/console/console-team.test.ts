import cookie from '@fastify/cookie'
import Fastify, { type FastifyError } from 'fastify'
import { describe, expect, it } from 'vitest'
import { latestAuditId } from '../../../test/team.js'
import { createTestApp } from '../../../test/app.js'
import { signedIn, visitor } from '../../../test/console.js'
import { enrolThroughPages, operatorEmail, signedInOperator, signInWithPassword } from '../../../test/console-team.js'
import { createReseller } from '../../../test/factory.js'
import { actingScope } from '../../http/auth.js'
import { consoleAccess } from './access.js'

// The console as the team uses it (docs/design.md §11d): each page and form held to the role's
// operations, console writes in the audit log as their operator's, the first owner and invitations.

const { app, ctx } = await createTestApp()
const balanceOf = async (id: number) =>
  (await ctx.db.selectFrom('accounts').select('balance').where('id', '=', id).executeTakeFirstOrThrow()).balance
const auditSince = (id: number) => ctx.db.selectFrom('audit_log').selectAll().where('id', '>', id).orderBy('id').execute()
const lastAuditId = () => latestAuditId(ctx)

describe('console pages by role', () => {
  it('refuses a viewer’s write with a 403 page and changes nothing; the nav shows what the role can use', async () => {
    const shop = await createReseller(app, { balance: 5_000 })
    const { v } = await signedInOperator(app, ctx, 'viewer')
    const overview = await v.get('/console')
    expect(overview.status).toBe(200)
    expect(overview.body).toContain('href="/console/resellers"')
    for (const hidden of ['/console/team', '/console/margin"', '/console/margin-watch'])
      expect(overview.body).not.toContain(`href="${hidden}`)
    expect((await v.get(`/console/resellers/${shop.id}`)).status).toBe(200)

    const before = await lastAuditId()
    const credit = await v.post(`/console/resellers/${shop.id}/balance`, { amount: '1000', reason: 'viewer tries' })
    expect(credit.status).toBe(403)
    expect(credit.body).toContain('FORBIDDEN_FOR_ROLE')
    expect(credit.body).toContain('your role, viewer, cannot do this: it takes finance or admin or owner')
    const created = await v.post('/console/resellers', { name: 'Viewer Shop' })
    expect(created.status).toBe(403)
    expect(await balanceOf(shop.id)).toBe(5_000)
    expect(await ctx.db.selectFrom('accounts').select('id').where('name', '=', 'Viewer Shop').execute()).toEqual([])
    expect(await auditSince(before)).toEqual([])
    // Reads above the role are refused too: the margin is finance's, the team admins'.
    for (const url of ['/console/margin', '/console/team', '/console/first-owner'])
      expect([url, (await v.get(url)).status]).toEqual([url, 403])
  })

  it('lets an admin see the team but not change it; support does care, not store', async () => {
    const { v } = await signedInOperator(app, ctx, 'admin')
    const team = await v.get('/console/team')
    expect(team.status).toBe(200)
    expect(team.body).not.toContain('id="invite-operator"')
    expect((await v.post('/console/team/invite', { email: operatorEmail(), name: 'Nope', role: 'viewer' })).status).toBe(403)
    const support = await signedInOperator(app, ctx, 'support')
    const shop = await createReseller(app)
    await support.v.get(`/console/resellers/${shop.id}`)
    expect((await support.v.post(`/console/resellers/${shop.id}/status`, { status: 'suspended' })).status).toBe(403)
  })

  it('logs console writes in audit_log with the operator’s email, role and the route’s operation id', async () => {
    const shop = await createReseller(app, { balance: 1_000 })
    const { v, operator } = await signedInOperator(app, ctx, 'finance')
    const before = await lastAuditId()
    await v.get(`/console/resellers/${shop.id}`)
    expect((await v.post(`/console/resellers/${shop.id}/balance`, { amount: '2500', reason: 'goodwill' })).status).toBe(303)
    const rows = await auditSince(before)
    const account = rows.find((r) => r.target_type === 'accounts')
    expect(account).toMatchObject({ actor: operator.email, actor_id: operator.id, role: 'finance', action: 'adminAdjustBalance' })
    expect(account!.changes.balance).toEqual({ before: 1_000, after: 3_500 })
    expect(rows.every((r) => r.action === 'adminAdjustBalance' && r.actor === operator.email)).toBe(true)

    // The admin token's console writes are the "admin token" owner's.
    const token = await signedIn(app)
    const mark = await lastAuditId()
    await token.get('/console/resellers')
    expect((await token.post('/console/resellers', { name: 'Audited Shop' })).status).toBe(200)
    const created = (await auditSince(mark)).find((r) => r.target_type === 'accounts')
    expect(created).toMatchObject({ actor: 'admin token', actor_id: null, role: 'owner', action: 'adminCreateReseller', change: 'insert' })
    // Reads log nothing.
    const quiet = await lastAuditId()
    await v.get('/console/resellers')
    expect(await lastAuditId()).toBe(quiet)
  })

  it('refuses a console write whose route names no operation, for every role (fail closed)', async () => {
    const mini = Fastify()
    await mini.register(cookie)
    let refused: string | undefined
    mini.setErrorHandler((error: FastifyError & { code?: string }, _request, reply) => {
      refused = error.code
      return reply.status(403).send()
    })
    await mini.register(async (scope) => {
      actingScope(scope)
      scope.addHook('onRequest', (request, reply) => consoleAccess(ctx, request, reply))
      scope.get('/console/unnamed', async () => 'read')
      scope.post('/console/unnamed', async () => 'written')
    })
    const token = await signedIn(app)
    const headers = { cookie: `console_session=${token.cookies.get('console_session')}` }
    expect((await mini.inject({ method: 'GET', url: '/console/unnamed', headers })).body).toBe('read')
    expect((await mini.inject({ method: 'POST', url: '/console/unnamed', headers })).statusCode).toBe(403)
    expect(refused).toBe('FORBIDDEN_FOR_ROLE')
    await mini.close()
  })
})

describe('the first owner and invitations', () => {
  it('offers the first owner’s form to the admin token only while no operator exists', async () => {
    const fresh = await createTestApp()
    const token = await signedIn(fresh.app)
    const overview = await token.get('/console')
    expect(overview.body).toContain('id="first-owner-call"')
    expect((await token.get('/console/first-owner')).status).toBe(200)
    // A typo comes back next to its field, with the typed values.
    const typo = await token.post('/console/first-owner', {
      email: 'not-an-email',
      name: 'Ana',
      password: 'long enough pw',
      password_again: 'long enough pw',
    })
    expect(typo.status).toBe(422)
    expect(typo.body).toContain('id="email-error"')
    expect(typo.body).toContain('value="Ana"')
    const mismatch = await token.post('/console/first-owner', {
      email: 'ana@shop.example',
      name: 'Ana',
      password: 'long enough pw',
      password_again: 'other one pw',
    })
    expect(mismatch.body).toContain('id="password_again-error"')
    const done = await token.post('/console/first-owner', {
      email: 'Ana@Shop.example',
      name: 'Ana',
      password: 'long enough pw',
      password_again: 'long enough pw',
    })
    expect([done.status, done.location]).toEqual([303, '/console/sign-in?done=owner'])
    // The admin token's session ended with it; signed in again, no call for a first owner.
    expect((await token.get('/console')).location).toBe('/console/sign-in')
    const again = await signedIn(fresh.app)
    expect((await again.get('/console')).body).not.toContain('id="first-owner-call"')
    expect((await again.get('/console/first-owner')).location).toBe('/console/team')
    const second = await again.post('/console/first-owner', {
      email: 'bo@shop.example',
      name: 'Bo',
      password: 'long enough pw',
      password_again: 'long enough pw',
    })
    expect([second.status, second.body.includes('id="email-error"')]).toEqual([409, true])
    expect(await fresh.ctx.db.selectFrom('operators').select(['email', 'role']).execute()).toEqual([
      { email: 'ana@shop.example', role: 'owner' },
    ])
    // The owner signs in and is sent to set up the second factor.
    const owner = await signInWithPassword(fresh.app, 'ana@shop.example', 'long enough pw')
    expect(owner.res.location).toBe('/console/enrol')
  })

  it('accepts an invitation on its page; the person then signs in, enrolling when the role needs it', async () => {
    const owner = await signedIn(app)
    await owner.get('/console/team')
    const email = operatorEmail('invited')
    const invited = await owner.post('/console/team/invite', { email, name: 'Citra', role: 'finance' })
    expect(invited.status).toBe(200)
    const url = /id="invite-url">([^<]+)</.exec(invited.body)![1]
    const path = new URL(url).pathname
    expect(path).toMatch(/^\/console\/invite\/[\w-]+$/)
    expect((await owner.get('/console/team')).body).toContain(email)
    // The same email again while active is refused next to the field.
    const stranger = visitor(app)
    const page = await stranger.get(path)
    expect([page.status, page.body.includes(email)]).toEqual([200, true])
    const short = await stranger.post(path, { name: 'Citra', password: 'short', password_again: 'short' })
    expect([short.status, short.body.includes('id="password-error"')]).toEqual([422, true])
    const accepted = await stranger.post(path, { name: 'Citra D.', password: 'citra password', password_again: 'citra password' })
    expect([accepted.status, accepted.location]).toEqual([303, '/console/sign-in?done=invited'])
    expect((await stranger.get(path)).status).toBe(404)
    const duplicate = await owner.post('/console/team/invite', { email, name: 'Again', role: 'viewer' })
    expect([duplicate.status, duplicate.body.includes('id="email-error"')]).toEqual([409, true])

    const signIn = await signInWithPassword(app, email, 'citra password')
    expect(signIn.res.location).toBe('/console/enrol')
    await enrolThroughPages(signIn.v)
    const me = await signIn.v.get('/console/me')
    expect(me.body).toContain('Citra D.')
    expect(me.body).toContain('id="my-factor">on<')
  })

  it('lets every operator create and revoke their own tokens; owners revoke anyone’s on the team page', async () => {
    const { v, operator } = await signedInOperator(app, ctx, 'support')
    await v.get('/console/me')
    const created = await v.post('/console/me/tokens', { name: 'script' })
    const token = /id="new-token">(op_[^<]+)</.exec(created.body)![1]
    const call = () => app.inject({ method: 'GET', url: '/api/admin/v1/resellers', headers: { authorization: `Bearer ${token}` } })
    expect((await call()).statusCode).toBe(200)
    const [row] = await ctx.db.selectFrom('operator_tokens').select('id').where('operator_id', '=', operator.id).execute()
    expect((await v.post(`/console/me/tokens/${row.id}/revoke`, {})).location).toBe('/console/me?done=token-revoked#tokens')
    expect((await call()).statusCode).toBe(401)

    const second = /id="new-token">(op_[^<]+)</.exec((await v.post('/console/me/tokens', { name: 'other' })).body)![1]
    const owner = await signedIn(app)
    const detail = await owner.get(`/console/team/${operator.id}`)
    expect(detail.body).toContain(second.slice(0, 10))
    const live = await ctx.db
      .selectFrom('operator_tokens')
      .select('id')
      .where('operator_id', '=', operator.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow()
    expect((await owner.post(`/console/team/${operator.id}/tokens/${live.id}/revoke`, {})).status).toBe(303)
    const refused = await app.inject({ method: 'GET', url: '/api/admin/v1/resellers', headers: { authorization: `Bearer ${second}` } })
    expect(refused.statusCode).toBe(401)
  })
})
