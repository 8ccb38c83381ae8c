import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { signedIn } from '../../../test/console.js'
import { admin } from '../../../test/factory.js'
import { inTransaction } from '../../db/database.js'
import { reconcileKind } from '../alerts/index.js'

// The console's alerts (docs/design.md §11e): the open ones and the history, the channels form, a provider's thresholds.
const { app, ctx } = await createTestApp()
const operator = await signedIn(app)

describe('console: alerts', () => {
  it('lists open alerts first, then the cleared ones, each with where it was delivered', async () => {
    const empty = await operator.get('/console/alerts')
    expect(empty.status).toBe(200)
    expect(empty.body).toContain('No open alerts.')
    expect(empty.body).toContain('href="/console/alerts"')
    const targets = { telegram: '-100123' }
    await inTransaction(ctx.db, (trx) =>
      reconcileKind(trx, 'topups_in_review', [{ subject: '', message: '2 top-ups wait in review' }], targets),
    )
    await inTransaction(ctx.db, (trx) =>
      reconcileKind(trx, 'supplier_balance_low', [{ subject: 'dgf', message: 'dgf: balance under Rp 500.000' }], targets),
    )
    await inTransaction(ctx.db, (trx) => reconcileKind(trx, 'topups_in_review', [], targets))
    const page = await operator.get('/console/alerts')
    const [open, history] = page.body.split('id="alert-history"')
    expect(open).toContain('dgf: balance under Rp 500.000')
    expect(open).toContain('telegram started: pending')
    expect(open).not.toContain('2 top-ups wait in review')
    expect(history).toContain('2 top-ups wait in review')
    expect(history).toContain('telegram cleared: pending')
    expect(history).toContain('1 cleared alert')
  })

  it('saves the channels with the CSRF token, shows a new webhook secret once, and refuses a form without the token', async () => {
    const form = await operator.get('/console/alert-channels')
    expect(form.body).toContain('id="alert-channels"')
    const refused = await operator.post('/console/alert-channels', { email_to: 'x@example.com' }, { csrf: 'wrong' })
    expect(refused.status).toBe(403)
    expect(await admin(app, 'GET', '/alert-channels')).toEqual({ email: null, telegram: null, webhook: null })

    const saved = await operator.post('/console/alert-channels', {
      email_to: 'ops@example.com',
      telegram_chat_id: '-1001234567890',
      webhook_url: 'https://ops.example/alerts',
    })
    expect(saved.status).toBe(200)
    const secret = /id="webhook-secret">(whsec_[^<]+)</.exec(saved.body)?.[1]
    expect(secret).toMatch(/^whsec_/)
    expect(await admin(app, 'GET', '/alert-channels')).toEqual({
      email: { to: 'ops@example.com' },
      telegram: { chat_id: '-1001234567890' },
      webhook: { url: 'https://ops.example/alerts', has_secret: true },
    })
    const again = await operator.get('/console/alert-channels')
    expect(again.body).not.toContain(secret)
    expect(again.body).toContain('value="https://ops.example/alerts"')
    // Saving the form as shown keeps the secret; a blank field switches its channel off.
    const resaved = await operator.post('/console/alert-channels', {
      email_to: '',
      telegram_chat_id: '-1001234567890',
      webhook_url: 'https://ops.example/alerts',
    })
    expect(resaved.body).not.toContain('id="webhook-secret"')
    expect((await admin(app, 'GET', '/alert-channels')).email).toBeNull()
    const row = await ctx.db.selectFrom('alert_channels').select('webhook_secret_enc').executeTakeFirstOrThrow()
    expect(ctx.vault.decrypt(row.webhook_secret_enc!)).toBe(secret)

    const bad = await operator.post('/console/alert-channels', { telegram_chat_id: 'nobody' })
    expect(bad.status).toBe(422)
    expect(bad.body).toContain('telegram.chat_id')
  })

  it('sets a provider’s low-balance thresholds from the providers page', async () => {
    await admin(app, 'POST', '/providers', { code: 'thr', kind: 'digiflazz', base_url: 'http://127.0.0.1:9/v1' })
    const page = await operator.get('/console/providers')
    expect(page.body).toContain('id="thresholds-thr"')
    const saved = await operator.post('/console/providers/thr/thresholds', { balance_alert_below: '500000', balance_alert_hours: '12.5' })
    expect(saved.location).toBe('/console/providers?done=provider')
    const listed = (await admin(app, 'GET', '/providers')).find((p: { code: string }) => p.code === 'thr')
    expect(listed).toMatchObject({ balance_alert_below: 500_000, balance_alert_hours: 12.5 })
    expect((await operator.get('/console/providers')).body).toContain('value="500000"')
    const bad = await operator.post('/console/providers/thr/thresholds', { balance_alert_below: '', balance_alert_hours: '0' })
    expect(bad.status).toBe(422)
    expect(bad.body).toContain('balance_alert_hours')
    const off = await operator.post('/console/providers/thr/thresholds', { balance_alert_below: '', balance_alert_hours: '' })
    expect(off.location).toBe('/console/providers?done=provider')
    expect((await admin(app, 'GET', '/providers')).find((p: { code: string }) => p.code === 'thr')).toMatchObject({
      balance_alert_below: null,
      balance_alert_hours: null,
    })
  })
})
