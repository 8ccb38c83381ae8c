import type { ColumnType, Generated } from 'kysely'
import type { Id } from './columns.js'

// The tables of operator alerts, their channels and deliveries (docs/design.md §11e).
export const ALERT_KINDS = [
  'supplier_balance_low',
  'provider_failures',
  'upstream_queue_stalled',
  'webhook_failing',
  'topups_in_review',
  'bank_mutations_unmatched',
  'complaints_overdue',
] as const
export type AlertKind = (typeof ALERT_KINDS)[number]
export type AlertChannel = 'email' | 'telegram' | 'webhook'

export interface AlertsTable {
  id: Id
  kind: AlertKind
  subject: Generated<string>
  message: string
  details: ColumnType<Record<string, unknown>, string | undefined, string>
  started_at: Generated<Date>
  cleared_at: Date | null
}

export interface AlertChannelsTable {
  id: Generated<boolean>
  email_to: string | null
  telegram_chat_id: string | null
  webhook_url: string | null
  webhook_secret_enc: string | null
  updated_at: Generated<Date>
}

export interface AlertDeliveriesTable {
  id: Id
  alert_id: number
  event: 'started' | 'cleared'
  channel: AlertChannel
  target: string
  status: Generated<'pending' | 'retrying' | 'delivered' | 'failed'>
  failures: Generated<number>
  next_attempt_at: Date | null
  attempts: ColumnType<{ attempted_at: string; ok: boolean; error: string | null; duration_ms: number }[], string | undefined, string>
  created_at: Generated<Date>
  delivered_at: Date | null
}
