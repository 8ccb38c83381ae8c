import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { onPostgres } from '../../../test/database.js'
import { until } from '../../../test/eventually.js'
import { operatorWithToken } from '../../../test/team.js'
import { CLI_DATABASE_ACTOR, callInProcess } from '../../cli/in-process.js'
import type { OperatorRole } from '../../db/schema.js'
import { acceptInvitation, createOperatorToken } from './index.js'

// docs/design.md §11d: the team's API. Owners invite, change and remove people; everyone has their own op_ tokens.
const { app, ctx } = await createTestApp()
const asAdminToken = { authorization: `Bearer ${ADMIN_TOKEN}` }
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'
const call = (method: Method, url: string, headers: Record<string, string>, payload?: object) =>
  app.inject({ method, url: `/api/admin/v1${url}`, headers, payload })

/** Anything that could be a secret in a body: the keys of one, or a SHA-256 in hex. */
function expectNoSecrets(text: string, tokens: string[] = []) {
  expect(text).not.toMatch(/password|_hash|totp_secret|recovery_code/)
  expect(text).not.toMatch(/[0-9a-f]{64}/)
  for (const token of tokens) expect(text).not.toContain(token)
}

const inviteTokenOf = (url: string) => {
  const prefix = `${ctx.config.publicUrl}/console/invite/`
  expect(url.startsWith(prefix), url).toBe(true)
  return url.slice(prefix.length)
}

/** Invites a person as the admin token and accepts the link, as the console's invite page would. */
async function invitedAndAccepted(email: string, role: OperatorRole) {
  const res = await call('POST', '/operators', asAdminToken, { email, name: 'Invited Person', role })
  expect(res.statusCode, res.body).toBe(200)
  const invite = inviteTokenOf(res.json().data.invite_url)
  await acceptInvitation(ctx.db, invite, { name: 'Invited Person', password: 'a long enough password' })
  return { id: res.json().data.id as number, invite }
}

const auditOf = (action: string, after = 0) =>
  ctx.db.selectFrom('audit_log').selectAll().where('action', '=', action).where('id', '>', after).orderBy('id').execute()
const lastAuditId = async () =>
  Number(
    (
      await ctx.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst()
    )?.id ?? 0,
  )

/** Holds `ids` of operators FOR UPDATE in a transaction of its own until `onHeld`'s release is called. */
function holdRows(ids: number[], onHeld: (release: () => void) => void) {
  let locked!: () => void
  const isLocked = new Promise<void>((resolve) => (locked = resolve))
  const done = ctx.db.transaction().execute(async (trx) => {
    await trx.selectFrom('operators').select('id').where('id', 'in', ids).forUpdate().execute()
    await new Promise<void>((resolve) => {
      onHeld(resolve)
      locked()
    })
  })
  return { locked: isLocked, done }
}

const waitingOnLocks = async () =>
  Number(
    (
      await sql<{
        n: number
      }>`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(ctx.db)
    ).rows[0].n,
  )

describe('the team API', () => {
  it('invites, the link is accepted, and the person makes and uses tokens of their own', async () => {
    const invited = await call('POST', '/operators', asAdminToken, { email: 'Ana.Putri@TokoMaju.example', name: ' Ana ', role: 'finance' })
    expect(invited.statusCode, invited.body).toBe(200)
    const data = invited.json().data
    expect(data).toMatchObject({
      email: 'ana.putri@tokomaju.example',
      name: 'Ana',
      role: 'finance',
      status: 'invited',
      totp_enabled_at: null,
    })
    const invite = inviteTokenOf(data.invite_url)
    expectNoSecrets(JSON.stringify({ ...data, invite_url: undefined }), [invite])

    const accepted = await acceptInvitation(ctx.db, invite, { name: 'Ana Putri', password: 'a long enough password' })
    expect(accepted).toMatchObject({ id: data.id, status: 'active' })
    const first = await createOperatorToken(ctx.db, data.id, 'first')

    const me = await call('GET', '/me', bearer(first.token))
    expect(me.json()).toEqual({
      message: 'OK',
      data: { id: data.id, email: 'ana.putri@tokomaju.example', name: 'Ana Putri', role: 'finance' },
    })
    const created = await call('POST', '/me/tokens', bearer(first.token), { name: 'reports script' })
    expect(created.statusCode, created.body).toBe(200)
    const second = created.json().data
    expect(second).toMatchObject({ operator_id: data.id, name: 'reports script', revoked_at: null, last_used_at: null })
    expect(second.token).toMatch(/^op_[A-Za-z0-9_-]{43}$/)
    expect(second.token.startsWith(second.token_prefix)).toBe(true)
    expectNoSecrets(JSON.stringify({ ...second, token: undefined }))

    // The new token works, with the person's role: finance reads the margin report, and may not touch the catalog.
    expect((await call('GET', '/reports/margin', bearer(second.token))).statusCode).toBe(200)
    const refused = await call('POST', '/categories', bearer(second.token), { name: 'Not Mine' })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toMatchObject({ message: 'FORBIDDEN_FOR_ROLE', data: { role: 'finance', allowed: ['admin', 'owner'] } })

    const listed = await call('GET', '/me/tokens', bearer(second.token))
    expect(listed.json().data.map((t: { name: string }) => t.name)).toEqual(['reports script', 'first'])
    expectNoSecrets(listed.body, [first.token, second.token])
    const revoked = await call('DELETE', `/me/tokens/${first.id}`, bearer(second.token))
    expect(revoked.json().data).toMatchObject({ id: first.id, revoked_at: expect.any(String) })
    expect((await call('GET', '/me', bearer(first.token))).statusCode).toBe(401)
    expect((await call('DELETE', `/me/tokens/${first.id}`, bearer(second.token))).json()).toMatchObject({ message: 'TOKEN_NOT_FOUND' })
  })

  it('answers who the admin token is, and tells it to make a person for tokens', async () => {
    expect((await call('GET', '/me', asAdminToken)).json()).toEqual({
      message: 'OK',
      data: { id: null, email: null, name: 'admin token', role: 'owner' },
    })
    for (const [method, url, payload] of [
      ['GET', '/me/tokens', undefined],
      ['POST', '/me/tokens', { name: 'mine' }],
      ['DELETE', '/me/tokens/1', undefined],
    ] as const) {
      const res = await call(method, url, asAdminToken, payload)
      expect(res.statusCode, url).toBe(409)
      expect(res.json().message).toBe('INVALID_STATE')
      expect(res.json().errors.Authorization[0]).toMatch(/invite yourself as an operator/)
    }
  })

  it('applies a role change at the next call', async () => {
    const person = await operatorWithToken(ctx, 'viewer')
    const create = () => call('POST', '/resellers', person.headers, { name: 'Role Shop' })
    expect((await create()).statusCode).toBe(403)
    const promoted = await call('PATCH', `/operators/${person.id}`, asAdminToken, { role: 'admin' })
    expect(promoted.json().data).toMatchObject({ id: person.id, role: 'admin' })
    expect((await create()).statusCode).toBe(200)
    expect((await call('GET', '/me', person.headers)).json().data.role).toBe('admin')
    await call('PATCH', `/operators/${person.id}`, asAdminToken, { role: 'support' })
    expect((await create()).statusCode).toBe(403)
  })

  it('removes a person: every token of theirs is refused at once, and shows revoked', async () => {
    const person = await operatorWithToken(ctx, 'admin')
    const other = await createOperatorToken(ctx.db, person.id, 'laptop')
    expect((await call('GET', '/me', person.headers)).statusCode).toBe(200)
    const removed = await call('DELETE', `/operators/${person.id}`, asAdminToken)
    expect(removed.json().data).toMatchObject({ id: person.id, status: 'removed' })
    for (const token of [person.token, other.token]) {
      const res = await call('GET', '/me', bearer(token))
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ message: 'UNAUTHORIZED' })
    }
    const tokens = (await call('GET', `/operators/${person.id}/tokens`, asAdminToken)).json().data
    expect(tokens).toHaveLength(2)
    expect(tokens.every((t: { revoked_at: string | null }) => t.revoked_at !== null)).toBe(true)
    expect((await call('DELETE', `/operators/${person.id}`, asAdminToken)).json()).toEqual({ message: 'OPERATOR_NOT_FOUND' })
  })

  it('lets an owner revoke one of someone’s tokens, and reset their second factor', async () => {
    const owner = await operatorWithToken(ctx, 'owner')
    const person = await operatorWithToken(ctx, 'support')
    const spare = await createOperatorToken(ctx.db, person.id, 'spare')
    const revoked = await call('DELETE', `/operators/${person.id}/tokens/${spare.id}`, owner.headers)
    expect(revoked.json().data).toMatchObject({ id: spare.id, revoked_at: expect.any(String) })
    expect((await call('GET', '/me', bearer(spare.token))).statusCode).toBe(401)
    expect((await call('GET', '/me', person.headers)).statusCode).toBe(200)
    // Another person's token is no token of theirs.
    const foreign = await call('DELETE', `/operators/${person.id}/tokens/${owner.id}`, owner.headers)
    expect([foreign.statusCode, foreign.json().message]).toEqual([404, 'TOKEN_NOT_FOUND'])

    await ctx.db
      .updateTable('operators')
      .set({ totp_secret_enc: 'sealed', totp_enabled_at: new Date(), recovery_code_hashes: ['x'] })
      .where('id', '=', person.id)
      .execute()
    const reset = await call('POST', `/operators/${person.id}/second-factor/reset`, owner.headers)
    expect(reset.json().data).toMatchObject({ id: person.id, totp_enabled_at: null })
    const row = await ctx.db.selectFrom('operators').selectAll().where('id', '=', person.id).executeTakeFirstOrThrow()
    expect([row.totp_secret_enc, row.totp_enabled_at, row.recovery_code_hashes]).toEqual([null, null, []])
    expect((await call('POST', '/operators/999999/second-factor/reset', owner.headers)).json()).toEqual({ message: 'OPERATOR_NOT_FOUND' })
  })

  it('refuses team writes to everyone but owners, and team reads below admin', async () => {
    const target = await operatorWithToken(ctx, 'viewer')
    for (const role of ['admin', 'finance', 'support', 'viewer'] as const) {
      const person = await operatorWithToken(ctx, role)
      const writes: [Method, string, object?][] = [
        ['POST', '/operators', { email: `new-${role}@example.com`, name: 'New', role: 'viewer' }],
        ['PATCH', `/operators/${target.id}`, { role: 'owner' }],
        ['DELETE', `/operators/${target.id}`],
        ['POST', `/operators/${target.id}/second-factor/reset`],
        ['DELETE', `/operators/${target.id}/tokens/1`],
      ]
      for (const [method, url, payload] of writes) {
        const res = await call(method, url, person.headers, payload)
        expect(res.statusCode, `${role} ${method} ${url}`).toBe(403)
        expect(res.json()).toMatchObject({ message: 'FORBIDDEN_FOR_ROLE', data: { role, allowed: ['owner'] } })
      }
      const reads = await call('GET', '/operators', person.headers)
      expect(reads.statusCode, role).toBe(role === 'admin' ? 200 : 403)
      // Everyone has a self: who they are, and their own tokens.
      expect((await call('GET', '/me', person.headers)).statusCode).toBe(200)
      expect((await call('GET', '/me/tokens', person.headers)).statusCode).toBe(200)
    }
    expect((await call('GET', '/me', target.headers)).json().data.role).toBe('viewer')
  })

  it('validates bodies: email, role, name 1–100, unknown fields ignored, an active email a DUPLICATE', async () => {
    const bad = await call('POST', '/operators', asAdminToken, { email: 'not-an-email', name: '', role: 'boss' })
    expect(bad.statusCode).toBe(422)
    expect(Object.keys(bad.json().errors).sort()).toEqual(['email', 'name', 'role'])
    const long = await call('POST', '/operators', asAdminToken, { email: 'long@example.com', name: 'n'.repeat(101), role: 'viewer' })
    expect(long.json().errors).toEqual({ name: ['must be at most 100 characters'] })
    const blank = await call('POST', '/operators', asAdminToken, { email: 'blank@example.com', name: '   ', role: 'viewer' })
    expect(blank.json()).toEqual({ message: 'VALIDATION_ERROR', errors: { name: ['must not be blank'] } })
    const extra = await call('POST', '/operators', asAdminToken, {
      email: 'extra@example.com',
      name: 'Extra',
      role: 'viewer',
      status: 'active',
    })
    expect(extra.json().data).toMatchObject({ email: 'extra@example.com', status: 'invited' })
    // Unknown fields are ignored (docs/design.md §3): never written, whatever column they name.
    const ignored = await call('PATCH', `/operators/${extra.json().data.id}`, asAdminToken, {
      name: 'Renamed',
      status: 'removed',
      email: 'evil@example.com',
    })
    expect(ignored.json().data).toMatchObject({ name: 'Renamed', role: 'viewer', status: 'invited', email: 'extra@example.com' })
    const typed = await call('PATCH', `/operators/${extra.json().data.id}`, asAdminToken, { name: 5, role: 'owner ' })
    expect(Object.keys(typed.json().errors).sort()).toEqual(['name', 'role'])
    expect((await call('PATCH', '/operators/999999', asAdminToken, { name: 'Nobody' })).json()).toEqual({ message: 'OPERATOR_NOT_FOUND' })
    expect((await call('GET', '/operators/999999/tokens', asAdminToken)).json()).toEqual({ message: 'OPERATOR_NOT_FOUND' })

    const active = await operatorWithToken(ctx, 'viewer')
    const duplicate = await call('POST', '/operators', asAdminToken, { email: active.email.toUpperCase(), name: 'Again', role: 'admin' })
    expect(duplicate.statusCode).toBe(409)
    expect(duplicate.json()).toEqual({ message: 'DUPLICATE', errors: { email: ['is an active operator already'] } })
    const token = await call('POST', '/me/tokens', active.headers, { name: '  ' })
    expect(token.json()).toEqual({ message: 'VALIDATION_ERROR', errors: { name: ['must not be blank'] } })
  })

  it('logs each team write with its operation id and the owner’s email, and never a token, hash or secret', async () => {
    const owner = await operatorWithToken(ctx, 'owner')
    const before = await lastAuditId()
    const invited = (await call('POST', '/operators', owner.headers, { email: 'audit@example.com', name: 'Audit', role: 'support' })).json()
      .data
    const invite = inviteTokenOf(invited.invite_url)
    await acceptInvitation(ctx.db, invite, { name: 'Audit', password: 'a long enough password' })
    const person = await createOperatorToken(ctx.db, invited.id, 'first')
    const theirs = (await call('POST', '/me/tokens', bearer(person.token), { name: 'second' })).json().data
    const third = await createOperatorToken(ctx.db, invited.id, 'third')
    const writes: [string, Method, string, string, object?][] = [
      ['adminUpdateOperator', 'PATCH', `/operators/${invited.id}`, owner.token, { role: 'admin', name: 'Audited' }],
      ['adminResetOperatorSecondFactor', 'POST', `/operators/${invited.id}/second-factor/reset`, owner.token],
      ['adminRevokeOperatorToken', 'DELETE', `/operators/${invited.id}/tokens/${person.id}`, owner.token],
      ['adminRevokeMyToken', 'DELETE', `/me/tokens/${theirs.id}`, theirs.token],
      ['adminRemoveOperator', 'DELETE', `/operators/${invited.id}`, owner.token],
    ]
    for (const [, method, url, token, payload] of writes) {
      const res = await call(method, url, bearer(token), payload)
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200)
    }
    const rows = await ctx.db.selectFrom('audit_log').selectAll().where('id', '>', before).orderBy('id').execute()
    const byAction = (action: string) => rows.filter((r) => r.action === action)
    expect(byAction('adminInviteOperator')).toEqual([
      expect.objectContaining({ actor: owner.email, actor_id: owner.id, role: 'owner', target_type: 'operators', change: 'insert' }),
    ])
    expect(byAction('adminInviteOperator')[0].changes.invite_hash).toEqual({ before: null, after: '[redacted]' })
    expect(byAction('adminCreateMyToken')).toEqual([
      expect.objectContaining({ actor: 'audit@example.com', actor_id: invited.id, target_type: 'operator_tokens', change: 'insert' }),
    ])
    for (const [action, , , token] of writes) {
      const logged = byAction(action)
      expect(logged.length, action).toBeGreaterThan(0)
      const actor = token === owner.token ? owner.email : 'audit@example.com'
      expect(
        logged.every((r) => r.actor === actor),
        action,
      ).toBe(true)
    }
    expect(byAction('adminUpdateOperator')[0].changes).toMatchObject({
      role: { before: 'support', after: 'admin' },
      name: { before: 'Audit', after: 'Audited' },
    })
    // The removal revoked the token still live in the same write.
    expect(byAction('adminRemoveOperator').map((r) => [r.target_type, r.target_id])).toEqual([
      ['operators', String(invited.id)],
      ['operator_tokens', String(third.id)],
    ])
    const text = JSON.stringify(rows)
    for (const secret of [invite, person.token, theirs.token, third.token, owner.token]) expect(text).not.toContain(secret)
    expect(text).not.toMatch(/[0-9a-f]{64}/)
  })

  it('keeps the last owner: neither removed nor demoted, and two removals at once of the last two leave one', async () => {
    // Only the admin token and people made here: every owner but one goes first.
    const owners = await ctx.db.selectFrom('operators').select('id').where('role', '=', 'owner').where('status', '=', 'active').execute()
    const keep = owners.length ? owners[0] : { id: (await invitedAndAccepted('keeper@example.com', 'owner')).id }
    for (const { id } of owners.slice(1)) expect((await call('DELETE', `/operators/${id}`, asAdminToken)).statusCode).toBe(200)

    for (const [method, payload] of [
      ['DELETE', undefined],
      ['PATCH', { role: 'admin' }],
    ] as const) {
      const res = await call(method, `/operators/${keep.id}`, asAdminToken, payload)
      expect(res.statusCode, method).toBe(409)
      expect(res.json()).toEqual({
        message: 'INVALID_STATE',
        errors: { role: ['the last owner stays an owner: make another owner first'] },
      })
    }
    // Staying an owner, or a new name, is no demotion.
    expect((await call('PATCH', `/operators/${keep.id}`, asAdminToken, { role: 'owner', name: 'Keeper' })).statusCode).toBe(200)

    const second = await operatorWithToken(ctx, 'owner')
    // On PostgreSQL both removals are let go together: until both wait on the owners' rows, a transaction holds them.
    let release = () => {}
    const held = onPostgres ? holdRows([keep.id, second.id], (r) => (release = r)) : undefined
    await held?.locked
    const removals = Promise.all([keep.id, second.id].map((id) => call('DELETE', `/operators/${id}`, asAdminToken)))
    if (held) await until('both removals wait on the owners', async () => (await waitingOnLocks()) >= 2)
    release()
    await held?.done
    const answers = await removals
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409])
    const left = await ctx.db.selectFrom('operators').select('id').where('role', '=', 'owner').where('status', '=', 'active').execute()
    expect(left).toHaveLength(1)
  })

  it('lists operators without a secret', async () => {
    const res = await call('GET', '/operators', asAdminToken)
    expect(res.statusCode).toBe(200)
    expect(res.json().data.length).toBeGreaterThan(3)
    expectNoSecrets(res.body)
  })
})

describe('the CLI on the database itself', () => {
  it('acts as an owner named "cli (database)" in the audit log', async () => {
    const before = await lastAuditId()
    const answer = await callInProcess(
      ctx,
      { method: 'POST', url: '/api/admin/v1/operators', body: { email: 'first-owner@example.com', name: 'First', role: 'owner' } },
      ADMIN_TOKEN,
    )
    expect(answer.status).toBe(200)
    expect((await callInProcess(ctx, { method: 'GET', url: '/api/admin/v1/me' }, ADMIN_TOKEN)).body).toMatchObject({
      data: { id: null, name: 'cli (database)', role: 'owner' },
    })
    const [row] = await auditOf('adminInviteOperator', before)
    expect(row).toMatchObject({ actor: CLI_DATABASE_ACTOR.name, actor_id: null, role: 'owner' })
    // The service's own app still names the admin token as itself.
    expect((await call('GET', '/me', asAdminToken)).json().data.name).toBe('admin token')
  })
})
