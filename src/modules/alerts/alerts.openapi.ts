import { operations } from '../../http/operation.js'

// The operator's alert routes' docs and examples (docs/design.md §11e).
const started = '2026-12-06T03:00:00.000Z'
const low = {
  id: 31,
  kind: 'supplier_balance_low',
  subject: 'digiflazz',
  message: 'digiflazz: balance Rp 180.000 is under the alert threshold Rp 500.000',
  details: { balance: 180_000, below: 500_000, hours_left: 5.2 },
  open: true,
  started_at: started,
  cleared_at: null,
  deliveries: [
    { event: 'started', channel: 'telegram', status: 'delivered', failures: 0, delivered_at: '2026-12-06T03:00:02.000Z' },
    { event: 'started', channel: 'email', status: 'retrying', failures: 1, delivered_at: null },
  ],
}
const cleared = {
  id: 29,
  kind: 'upstream_queue_stalled',
  subject: '',
  message: 'the oldest queued upstream request has waited 4 minutes',
  details: { oldest_seconds: 240 },
  open: false,
  started_at: '2026-12-06T01:10:00.000Z',
  cleared_at: '2026-12-06T01:16:00.000Z',
  deliveries: [
    { event: 'started', channel: 'telegram', status: 'delivered', failures: 0, delivered_at: '2026-12-06T01:10:01.000Z' },
    { event: 'cleared', channel: 'telegram', status: 'delivered', failures: 0, delivered_at: '2026-12-06T01:16:01.000Z' },
  ],
}
const channels = {
  email: { to: 'ops@tokomaju.example, budi@tokomaju.example' },
  telegram: { chat_id: '-1001234567890' },
  webhook: { url: 'https://ops.tokomaju.example/hooks/alerts', has_secret: true },
}

export const ALERT_DOCS = operations({
  adminListAlerts: {
    description:
      'Alerts kept, open and cleared, newest first: each fired once when its condition started (`started_at`) and once when it cleared (`cleared_at`, null while open), with its deliveries per channel and event. `open=true`: only those not cleared, `open=false` only cleared ones; `kind`: one kind.',
    codes: ['VALIDATION_ERROR'],
    response: {
      message: 'OK',
      data: [low, cleared],
      meta: { page: 1, per_page: 50, total: 2, last_page: 1, total_capped: false, next_cursor: null },
    },
  },
  adminGetAlertChannels: {
    description:
      'Where alerts go: an email list, a Telegram chat, a signed webhook; an unset channel is null. The webhook’s signing secret is never shown here, only whether there is one. admin and owner only.',
    response: { message: 'OK', data: channels },
  },
  adminPutAlertChannels: {
    description:
      'Sets the channels as a whole: a channel null or left out is cleared. A webhook URL set for the first time, changed, or with `rotate_secret: true` gets a new signing secret (`whsec_…`, Standard Webhooks), shown in this answer only; the same URL again keeps its secret. URLs follow the reseller webhook’s rule: https (http only for localhost outside production), no credentials. owner only.',
    codes: ['VALIDATION_ERROR', 'INVALID_JSON', 'BAD_REQUEST'],
    request: {
      email: { to: 'ops@tokomaju.example, budi@tokomaju.example' },
      telegram: { chat_id: '-1001234567890' },
      webhook: { url: 'https://ops.tokomaju.example/hooks/alerts' },
    },
    response: {
      message: 'OK',
      data: { ...channels, webhook: { ...channels.webhook, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4C1QSXbaA+E=' } },
    },
    errorExamples: {
      VALIDATION_ERROR: {
        message: 'VALIDATION_ERROR',
        errors: { 'webhook.url': ['must use https (http only for localhost)'] },
      },
    },
  },
})
