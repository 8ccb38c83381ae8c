import { sql } from 'kysely'
import { Webhook } from 'standardwebhooks'
import { afterAll, describe, expect, it } from 'vitest'
import { startFakeTelegram, startSmtpSink } from '../../../test/alert-channels.js'
import { createTestApp } from '../../../test/app.js'
import { admin } from '../../../test/factory.js'
import { startReceiver } from '../../../test/receiver.js'
import { addSimulatedProvider, startUpstreams } from '../../../test/upstreams.js'
import { alertDeliveryDeps, alertEvaluateDeps } from '../../workers/index.js'
import { newWebhookSecret } from '../webhooks/index.js'
import { deliverAlerts, evaluateAlerts } from './index.js'

// Operator alerts end to end (docs/design.md §11e): a condition read from the database, reconciled,
// and sent over a local SMTP sink, a fake Telegram Bot API and a webhook receiver.
const smtp = await startSmtpSink()
const telegram = await startFakeTelegram()
const receiver = await startReceiver()
const { app, ctx } = await createTestApp({
  SMTP_URL: smtp.url,
  SMTP_FROM: 'alerts@shop.example',
  TELEGRAM_BOT_TOKEN: '123:test-token',
  TELEGRAM_API_URL: telegram.url,
  PROVIDER_TIMEOUT_MS: '1500',
})
const up = await startUpstreams()
afterAll(() => up.close())
await addSimulatedProvider(app, up, 'digiflazz', 'dgf')
const secret = newWebhookSecret()
await sql`INSERT INTO alert_channels (email_to, telegram_chat_id, webhook_url, webhook_secret_enc)
          VALUES ('ops@shop.example', '-100123', ${receiver.url}, ${ctx.vault.encrypt(secret)})`.execute(ctx.db)

const evaluate = () => evaluateAlerts(alertEvaluateDeps(ctx))
const deliver = () => deliverAlerts(alertDeliveryDeps(ctx))
const deliveriesOf = (alertId: number) =>
  ctx.db
    .selectFrom('alert_deliveries')
    .select(['event', 'channel', 'status', 'failures', 'attempts'])
    .where('alert_id', '=', alertId)
    .orderBy('id')
    .execute()

describe('alerts: a supplier balance under its threshold', () => {
  it('fires once per channel, not again while it lasts, and clears once per channel', async () => {
    await sql`UPDATE providers SET balance_alert_below = 50000 WHERE code = 'dgf'`.execute(ctx.db)
    up.digiflazz.deposit.amount = 40_000
    await admin(app, 'POST', '/providers/dgf/balance/refresh')

    expect((await evaluate()).supplier_balance_low).toEqual({ started: 1, cleared: 0 })
    expect(await deliver()).toBe(3)
    expect(smtp.mails).toHaveLength(1)
    expect(smtp.mails[0]).toMatchObject({ from: 'alerts@shop.example', to: ['ops@shop.example'] })
    expect(smtp.mails[0]!.subject).toBe('[ALERT] Supplier dgf: balance IDR 40,000, under its threshold of IDR 50,000')
    expect(telegram.sent).toEqual([expect.objectContaining({ token: '123:test-token', chat_id: '-100123' })])
    expect(telegram.sent[0]!.text).toMatch(/^\[ALERT\] Supplier dgf: balance IDR 40,000/)
    expect(receiver.received).toHaveLength(1)
    const started = receiver.received[0]!
    // The receiver verifies it as any Standard Webhooks receiver does, with the channel's secret.
    expect(new Webhook(secret).verify(started.body, started.headers as Record<string, string>)).toMatchObject({
      type: 'alert.started',
      alert: { kind: 'supplier_balance_low', subject: 'dgf', cleared_at: null, details: { balance: 40000, threshold: 50000 } },
    })

    expect((await evaluate()).supplier_balance_low).toEqual({ started: 0, cleared: 0 })
    expect(await deliver()).toBe(0)
    expect([smtp.mails.length, telegram.sent.length, receiver.received.length]).toEqual([1, 1, 1])

    up.digiflazz.deposit.amount = 2_000_000
    await admin(app, 'POST', '/providers/dgf/balance/refresh')
    expect((await evaluate()).supplier_balance_low).toEqual({ started: 0, cleared: 1 })
    expect(await deliver()).toBe(3)
    expect(smtp.mails.map((m) => m.subject.slice(0, 9))).toEqual(['[ALERT] S', '[CLEARED]'])
    expect(telegram.sent[1]!.text).toMatch(/^\[CLEARED\] Supplier dgf/)
    const cleared = new Webhook(secret).verify(receiver.received[1]!.body, receiver.received[1]!.headers as Record<string, string>)
    expect(cleared).toMatchObject({ type: 'alert.cleared', alert: { kind: 'supplier_balance_low', subject: 'dgf' } })
    expect((cleared as { alert: { cleared_at: string | null } }).alert.cleared_at).not.toBeNull()

    const alert = await ctx.db.selectFrom('alerts').selectAll().where('kind', '=', 'supplier_balance_low').executeTakeFirstOrThrow()
    expect(alert.cleared_at).not.toBeNull()
    const deliveries = await deliveriesOf(alert.id)
    expect(deliveries.map((d) => `${d.event} ${d.channel} ${d.status}`).sort()).toEqual([
      'cleared email delivered',
      'cleared telegram delivered',
      'cleared webhook delivered',
      'started email delivered',
      'started telegram delivered',
      'started webhook delivered',
    ])
  })

  it('clears the alert of a provider switched off, even while its balance stays low', async () => {
    await sql`UPDATE providers SET balance_alert_below = 50000 WHERE code = 'dgf'`.execute(ctx.db)
    up.digiflazz.deposit.amount = 10_000
    await admin(app, 'POST', '/providers/dgf/balance/refresh')
    expect((await evaluate()).supplier_balance_low).toEqual({ started: 1, cleared: 0 })
    await sql`UPDATE providers SET active = false WHERE code = 'dgf'`.execute(ctx.db)
    expect((await evaluate()).supplier_balance_low).toEqual({ started: 0, cleared: 1 })
    await sql`UPDATE providers SET active = true WHERE code = 'dgf'`.execute(ctx.db)
    up.digiflazz.deposit.amount = 2_000_000
    await admin(app, 'POST', '/providers/dgf/balance/refresh')
    await evaluate()
    await deliver()
  })
})

describe('alerts: a channel that fails', () => {
  it('records each attempt and retries it until delivered; the other channels are not sent again', async () => {
    const before = { mails: smtp.mails.length, hooks: receiver.received.length }
    telegram.state.failWith = 'Bad Request: chat not found'
    // An unmatched credit fires; a debit, unmatched too, is no payment anyone waits for.
    await sql`INSERT INTO bank_mutations (mutation_id, source, account_number, amount, type)
              VALUES ('m-1', 'moota', '1234567890', 150000, 'CR'), ('m-2', 'moota', '1234567890', 9000, 'DB')`.execute(ctx.db)
    expect((await evaluate()).bank_mutations_unmatched).toEqual({ started: 1, cleared: 0 })
    expect(await deliver()).toBe(3)
    const alert = await ctx.db.selectFrom('alerts').select('id').where('kind', '=', 'bank_mutations_unmatched').executeTakeFirstOrThrow()
    let tg = (await deliveriesOf(alert.id)).find((d) => d.channel === 'telegram')!
    expect(tg).toMatchObject({ status: 'retrying', failures: 1 })
    expect(tg.attempts).toEqual([expect.objectContaining({ ok: false, error: 'Telegram: HTTP 400, Bad Request: chat not found' })])

    // Due again (the schedule's first wait moved past), and Telegram takes it now.
    telegram.state.failWith = null
    await sql`UPDATE alert_deliveries SET next_attempt_at = now() - interval '1 second' WHERE alert_id = ${alert.id} AND status = 'retrying'`.execute(
      ctx.db,
    )
    expect(await deliver()).toBe(1)
    tg = (await deliveriesOf(alert.id)).find((d) => d.channel === 'telegram')!
    expect(tg).toMatchObject({ status: 'delivered', failures: 1 })
    expect(tg.attempts.map((a) => a.ok)).toEqual([false, true])
    expect(telegram.sent.at(-1)!.text).toBe(
      `[ALERT] 1 bank credit unmatched (IDR 150,000 in all)\n\nKind: bank_mutations_unmatched\nStarted: ${await startedAt(alert.id)}\nAlert: #${alert.id}`,
    )
    expect({ mails: smtp.mails.length, hooks: receiver.received.length }).toEqual({ mails: before.mails + 1, hooks: before.hooks + 1 })
  })

  it('fails an email delivery while SMTP_URL is unset, saying so, and keeps it for a retry', async () => {
    await sql`UPDATE bank_mutations SET status = 'ignored'`.execute(ctx.db)
    expect((await evaluate()).bank_mutations_unmatched).toEqual({ started: 0, cleared: 1 })
    const deps = alertDeliveryDeps(ctx)
    expect(await deliverAlerts({ ...deps, config: { ...deps.config, smtpUrl: undefined } })).toBe(3)
    const email = await ctx.db
      .selectFrom('alert_deliveries')
      .select(['status', 'failures', 'attempts'])
      .where('event', '=', 'cleared')
      .where('channel', '=', 'email')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(email).toMatchObject({ status: 'retrying', failures: 1 })
    expect(email.attempts).toEqual([expect.objectContaining({ ok: false, error: 'SMTP_URL is not set' })])
  })
})

async function startedAt(alertId: number) {
  const row = await ctx.db.selectFrom('alerts').select('started_at').where('id', '=', alertId).executeTakeFirstOrThrow()
  return row.started_at.toISOString()
}
