import nodemailer from 'nodemailer'
import type { Transporter } from 'nodemailer'
import { standardSignature, type Transport } from '../webhooks/index.js'
import type { ClaimedAlertDelivery } from './deliveries.queries.js'

// How one alert change leaves over each channel (docs/design.md §11e): email over SMTP, Telegram's
// Bot API sendMessage, a webhook signed as Standard Webhooks. Each answers null when delivered, or why not.

export type SenderConfig = {
  smtpUrl: string | undefined
  smtpFrom: string
  telegramBotToken: string | undefined
  telegramApiUrl: string
  timeoutMs: number
  userAgent: string
}

/** `[ALERT] …` on start, `[CLEARED] …` on clear: the email's subject and the Telegram message's first line. */
export const headline = (d: ClaimedAlertDelivery) => `${d.event === 'started' ? '[ALERT]' : '[CLEARED]'} ${d.message}`

/** The plain-text message: the headline, then what it is, since when and until when. */
export function alertText(d: ClaimedAlertDelivery): string {
  const lines = [headline(d), '', `Kind: ${d.kind}`]
  if (d.subject) lines.push(`Subject: ${d.subject}`)
  lines.push(`Started: ${new Date(d.started_at).toISOString()}`)
  if (d.cleared_at) lines.push(`Cleared: ${new Date(d.cleared_at).toISOString()}`)
  lines.push(`Alert: #${d.alert_id}`)
  return lines.join('\n')
}

/** The webhook's JSON body: the event and the alert as it stands. */
export function webhookBody(d: ClaimedAlertDelivery) {
  return {
    type: d.event === 'started' ? 'alert.started' : 'alert.cleared',
    alert: {
      id: d.alert_id,
      kind: d.kind,
      subject: d.subject,
      message: d.message,
      details: d.details,
      started_at: new Date(d.started_at).toISOString(),
      cleared_at: d.cleared_at ? new Date(d.cleared_at).toISOString() : null,
    },
  }
}

// One SMTP transport per URL for the process: its connections are pooled.
const mailers = new Map<string, Transporter>()

export async function sendEmail(config: SenderConfig, d: ClaimedAlertDelivery): Promise<string | null> {
  if (!config.smtpUrl) return 'SMTP_URL is not set'
  let mailer = mailers.get(config.smtpUrl)
  if (!mailer) {
    const t = config.timeoutMs
    mailer = nodemailer.createTransport({ url: config.smtpUrl, connectionTimeout: t, greetingTimeout: t, socketTimeout: t })
    mailers.set(config.smtpUrl, mailer)
  }
  try {
    await mailer.sendMail({ from: config.smtpFrom, to: d.target, subject: headline(d), text: alertText(d) })
    return null
  } catch (error) {
    return `SMTP: ${(error as Error).message}`.slice(0, 300)
  }
}

export async function sendTelegram(config: SenderConfig, fetchFn: typeof fetch, d: ClaimedAlertDelivery): Promise<string | null> {
  if (!config.telegramBotToken) return 'TELEGRAM_BOT_TOKEN is not set'
  try {
    const res = await fetchFn(`${config.telegramApiUrl}/bot${config.telegramBotToken}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: d.target, text: alertText(d) }),
      signal: AbortSignal.timeout(config.timeoutMs),
    })
    const answer = (await res.json().catch(() => null)) as { ok?: boolean; description?: string } | null
    if (res.ok && answer?.ok === true) return null
    return `Telegram: HTTP ${res.status}${answer?.description ? `, ${answer.description}` : ''}`.slice(0, 300)
  } catch (error) {
    // The error never names the URL: it holds the bot's token.
    return `Telegram: ${(error as Error).name === 'TimeoutError' ? 'timeout' : 'could not connect'}`
  }
}

/** POSTs the alert signed with the channel's secret; `webhook-id` is the alert change's, the same on every attempt. */
export async function sendWebhook(
  config: SenderConfig,
  transport: Transport,
  secret: string | null,
  d: ClaimedAlertDelivery,
  at: Date,
): Promise<string | null> {
  if (!secret) return 'the alert webhook has no signing secret'
  const body = JSON.stringify(webhookBody(d))
  const id = `alert_${d.alert_id}_${d.event}`
  const seconds = Math.floor(at.getTime() / 1000)
  const outcome = await transport.post(d.target, {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': config.userAgent,
      'webhook-id': id,
      'webhook-timestamp': String(seconds),
      'webhook-signature': standardSignature(secret, id, seconds, body),
    },
  })
  return outcome.failure ? outcome.failure.detail : null
}
