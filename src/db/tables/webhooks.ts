import type { ColumnType, Generated } from 'kysely'
import type { Id, Timestamp } from './columns.js'

// The tables of webhook settings and deliveries (each delivery logs its attempts).
export interface WebhookSettingsTable {
  account_id: number
  callback_url: string | null
  webhook_enabled: Generated<boolean>
  secret_enc: string | null
  secret_created_at: Date | null
  updated_at: Timestamp
}

export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed'

export interface WebhookDeliveriesTable {
  id: Id
  account_id: number
  outbox_event_id: number | null
  event: string
  order_id: number | null
  order_line_id: number | null
  /** A complaint.updated delivery's complaint. */
  complaint_id: Generated<number | null>
  webhook_id: string
  status: Generated<DeliveryStatus>
  claims: Generated<number>
  failures: Generated<number>
  next_attempt_at: Date | null
  created_at: Generated<Date>
  delivered_at: Date | null
  /** Every attempt, oldest first (written as JSON text). */
  attempts: ColumnType<AttemptLogEntry[], string | undefined, string>
  /** The event as built once by the relay (or the test send), sent alike on every attempt; NULL before migration 0220. */
  payload: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>
}

/** One attempt as its delivery row logs it. */
export type AttemptLogEntry = { attempted_at: string; status_code: number | null; duration_ms: number; error: string | null }

/** Each account's count of deliveries, kept by triggers on webhook_deliveries (webhooks.sql). */
export interface WebhookDeliveryTotalsTable {
  account_id: number
  deliveries: number
}
