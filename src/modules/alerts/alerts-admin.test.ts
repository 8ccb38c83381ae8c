import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { operatorWithToken } from '../../../test/team.js'
import { inTransaction } from '../../db/database.js'
import { reconcileKind } from './alerts.queries.js'

// docs/design.md §11e: the operator's side of alerts — the list, the channels, the providers' thresholds.
const { app, ctx } = await createTestApp()
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` }
const call = (method: 'GET' | 'PUT' | 'PATCH', url: string, payload?: object, headers: Record<string, string> = admin) =>
  app.inject({ method, url: `/api/admin/v1${url}`, payload, headers })

describe('GET /alerts', () => {
  it('lists open and cleared alerts newest first, with their deliveries per channel, filtered by open and kind', async () => {
    const targets = { telegram: '-100123', email: 'ops@example.com' }
    await inTransaction(ctx.db, (trx) =>
      reconcileKind(trx, 'supplier_balance_low', [{ subject: 'dgf', message: 'dgf is low', details: { balance: 10 } }], targets),
    )
    await inTransaction(ctx.db, (trx) => reconcileKind(trx, 'upstream_queue_stalled', [{ subject: '', message: 'stalled' }], targets))
    await inTransaction(ctx.db, (trx) => reconcileKind(trx, 'upstream_queue_stalled', [], { telegram: '-100123' }))
    await ctx.db
      .updateTable('alert_deliveries')
      .set({ status: 'delivered', delivered_at: new Date() })
      .where('channel', '=', 'telegram')
      .execute()

    const all = (await call('GET', '/alerts')).json()
    expect(all.data.map((a: { kind: string; open: boolean }) => [a.kind, a.open])).toEqual([
      ['upstream_queue_stalled', false],
      ['supplier_balance_low', true],
    ])
    const [stalled, low] = all.data
    expect(low).toMatchObject({ subject: 'dgf', message: 'dgf is low', details: { balance: 10 }, cleared_at: null })
    expect(low.deliveries).toEqual([
      { event: 'started', channel: 'telegram', status: 'delivered', failures: 0, delivered_at: expect.any(String) },
      { event: 'started', channel: 'email', status: 'pending', failures: 0, delivered_at: null },
    ])
    expect(new Date(stalled.cleared_at).getTime()).toBeGreaterThanOrEqual(new Date(stalled.started_at).getTime())
    expect(stalled.deliveries.map((d: { event: string; channel: string }) => `${d.event}:${d.channel}`)).toEqual([
      'started:telegram',
      'started:email',
      'cleared:telegram',
    ])
    expect(all.meta).toMatchObject({ page: 1, total: 2 })

    const open = (await call('GET', '/alerts?open=true')).json().data
    expect(open.map((a: { id: number }) => a.id)).toEqual([low.id])
    const history = (await call('GET', '/alerts?open=false')).json().data
    expect(history.map((a: { id: number }) => a.id)).toEqual([stalled.id])
    const kind = (await call('GET', '/alerts?kind=upstream_queue_stalled')).json().data
    expect(kind.map((a: { id: number }) => a.id)).toEqual([stalled.id])
    const paged = (await call('GET', '/alerts?per_page=1&page=2')).json()
    expect(paged.data.map((a: { id: number }) => a.id)).toEqual([low.id])

    const bad = await call('GET', '/alerts?kind=nope')
    expect(bad.statusCode).toBe(422)
    expect(Object.keys(bad.json().errors)).toEqual(['kind'])
  })

  it('is read by every role', async () => {
    const viewer = await operatorWithToken(ctx, 'viewer')
    expect((await call('GET', '/alerts', undefined, viewer.headers)).statusCode).toBe(200)
  })
})

describe('alert channels', () => {
  it('are all unset at first, set as a whole, the webhook secret shown once and kept when the URL stays', async () => {
    expect((await call('GET', '/alert-channels')).json().data).toEqual({ email: null, telegram: null, webhook: null })
    const put = await call('PUT', '/alert-channels', {
      email: { to: 'ops@example.com,  budi@example.com' },
      telegram: { chat_id: '-1001234567890' },
      webhook: { url: 'https://ops.example/hooks/alerts' },
    })
    expect(put.statusCode, put.body).toBe(200)
    const saved = put.json().data
    expect(saved).toEqual({
      email: { to: 'ops@example.com, budi@example.com' },
      telegram: { chat_id: '-1001234567890' },
      webhook: { url: 'https://ops.example/hooks/alerts', has_secret: true, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) },
    })
    const secret: string = saved.webhook.secret
    const row = await ctx.db.selectFrom('alert_channels').selectAll().executeTakeFirstOrThrow()
    expect(row.webhook_secret_enc).not.toContain(secret.slice(6))
    expect(ctx.vault.decrypt(row.webhook_secret_enc!)).toBe(secret)

    // Never again: not on GET, and not on a PUT that keeps the URL.
    const got = await call('GET', '/alert-channels')
    expect(got.body).not.toContain(secret)
    expect(got.json().data.webhook).toEqual({ url: 'https://ops.example/hooks/alerts', has_secret: true })
    const again = await call('PUT', '/alert-channels', {
      telegram: { chat_id: '@tokomaju_ops' },
      webhook: { url: 'https://ops.example/hooks/alerts' },
    })
    expect(again.json().data).toEqual({
      email: null,
      telegram: { chat_id: '@tokomaju_ops' },
      webhook: { url: 'https://ops.example/hooks/alerts', has_secret: true },
    })
    const kept = await ctx.db.selectFrom('alert_channels').select('webhook_secret_enc').executeTakeFirstOrThrow()
    expect(ctx.vault.decrypt(kept.webhook_secret_enc!)).toBe(secret)

    // Rotating, or a new URL, makes a new one.
    const rotated = (
      await call('PUT', '/alert-channels', { webhook: { url: 'https://ops.example/hooks/alerts', rotate_secret: true } })
    ).json()
    expect(rotated.data.webhook.secret).toMatch(/^whsec_/)
    expect(rotated.data.webhook.secret).not.toBe(secret)

    // The audit log has the change, never the secret.
    const audited = await ctx.db.selectFrom('audit_log').selectAll().where('target_type', '=', 'alert_channels').execute()
    expect(audited.map((r) => r.action)).toEqual(['adminPutAlertChannels', 'adminPutAlertChannels', 'adminPutAlertChannels'])
    const text = JSON.stringify(audited)
    for (const s of [secret, rotated.data.webhook.secret, row.webhook_secret_enc]) expect(text).not.toContain(s)

    // Null or absent clears.
    expect((await call('PUT', '/alert-channels', { webhook: null })).json().data).toEqual({ email: null, telegram: null, webhook: null })
    const cleared = await ctx.db.selectFrom('alert_channels').selectAll().executeTakeFirstOrThrow()
    expect(cleared).toMatchObject({ email_to: null, telegram_chat_id: null, webhook_url: null, webhook_secret_enc: null })
  })

  it('refuse bad values with a 422 naming the field, changing nothing', async () => {
    await call('PUT', '/alert-channels', { email: { to: 'keep@example.com' } })
    const cases: [object, string][] = [
      [{ email: { to: 'ops@example.com, not-an-address' } }, 'email.to'],
      [{ email: { to: ' , ' } }, 'email.to'],
      [{ telegram: { chat_id: 'someone' } }, 'telegram.chat_id'],
      [{ webhook: { url: 'http://ops.example/hook' } }, 'webhook.url'],
      [{ webhook: { url: 'https://user:pw@ops.example/hook' } }, 'webhook.url'],
      [{ webhook: { url: 'ftp://ops.example/hook' } }, 'webhook.url'],
    ]
    for (const [payload, field] of cases) {
      const res = await call('PUT', '/alert-channels', payload)
      expect(res.statusCode, JSON.stringify(payload)).toBe(422)
      expect(Object.keys(res.json().errors), JSON.stringify(payload)).toEqual([field])
    }
    const schema = await call('PUT', '/alert-channels', { email: { address: 'x@example.com' } })
    expect(schema.statusCode).toBe(422)
    expect((await call('GET', '/alert-channels')).json().data.email).toEqual({ to: 'keep@example.com' })
    // A loopback receiver is fine outside production (a local test receiver).
    expect((await call('PUT', '/alert-channels', { webhook: { url: 'http://127.0.0.1:9/alerts' } })).statusCode).toBe(200)
  })

  it('are read by admin and owner, and written by the owner only', async () => {
    const [support, adminOp, owner] = await Promise.all([
      operatorWithToken(ctx, 'support'),
      operatorWithToken(ctx, 'admin'),
      operatorWithToken(ctx, 'owner'),
    ])
    expect((await call('GET', '/alert-channels', undefined, support.headers)).statusCode).toBe(403)
    expect((await call('GET', '/alert-channels', undefined, adminOp.headers)).statusCode).toBe(200)
    const payload = { email: { to: 'support@example.com' } }
    for (const who of [support, adminOp]) {
      const res = await call('PUT', '/alert-channels', payload, who.headers)
      expect(res.statusCode).toBe(403)
      expect(res.json().message).toBe('FORBIDDEN_FOR_ROLE')
    }
    expect((await call('GET', '/alert-channels')).json().data.email).not.toEqual(payload.email)
    expect((await call('PUT', '/alert-channels', payload, owner.headers)).statusCode).toBe(200)
  })
})

describe('a provider’s low-balance thresholds', () => {
  it('round-trip through PATCH /providers/{code} and show in the list', async () => {
    const code = 'thr-dgf'
    const made = await call('PATCH', '/providers/nope', { balance_alert_below: 1 })
    expect(made.statusCode).toBe(404)
    await app.inject({
      method: 'POST',
      url: '/api/admin/v1/providers',
      headers: admin,
      payload: { code, kind: 'digiflazz', base_url: 'http://127.0.0.1:9/v1' },
    })
    const patched = await call('PATCH', `/providers/${code}`, { balance_alert_below: 500_000, balance_alert_hours: 12.5 })
    expect(patched.statusCode, patched.body).toBe(200)
    expect(patched.json().data).toMatchObject({ code, balance_alert_below: 500_000, balance_alert_hours: 12.5 })
    const listed = (await call('GET', '/providers')).json().data.find((p: { code: string }) => p.code === code)
    expect(listed).toMatchObject({ balance_alert_below: 500_000, balance_alert_hours: 12.5 })
    // Other changes leave them; null switches one off.
    expect((await call('PATCH', `/providers/${code}`, { active: true })).json().data.balance_alert_below).toBe(500_000)
    expect((await call('PATCH', `/providers/${code}`, { balance_alert_hours: null })).json().data).toMatchObject({
      balance_alert_below: 500_000,
      balance_alert_hours: null,
    })
    for (const [payload, field] of [
      [{ balance_alert_below: -1 }, 'balance_alert_below'],
      [{ balance_alert_below: 1.5 }, 'balance_alert_below'],
      [{ balance_alert_hours: 0 }, 'balance_alert_hours'],
      [{ balance_alert_hours: 0.001 }, 'balance_alert_hours'],
      [{ balance_alert_hours: 10_000_000 }, 'balance_alert_hours'],
    ] as const) {
      const res = await call('PATCH', `/providers/${code}`, payload)
      expect(res.statusCode, JSON.stringify(payload)).toBe(422)
      expect(Object.keys(res.json().errors)).toEqual([field])
    }
  })
})
