import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import type { AlertChannel, AlertKind } from '../../db/schema.js'

/** A delivery taken for one attempt, with the alert it tells of. */
export type ClaimedAlertDelivery = {
  id: number
  alert_id: number
  event: 'started' | 'cleared'
  channel: AlertChannel
  target: string
  failures: number
  kind: AlertKind
  subject: string
  message: string
  details: Record<string, unknown>
  started_at: Date
  cleared_at: Date | null
}

/**
 * Takes up to `limit` due deliveries in one autocommit statement (SKIP LOCKED: processes take
 * disjoint ones) and leases them until `leaseUntil`: no row stays locked during the send, and a
 * process that dies mid-send leaves them due again when the lease runs out.
 */
export async function claimDueAlertDeliveries(
  db: Database,
  at: { now: Date; leaseUntil: Date; limit: number },
): Promise<ClaimedAlertDelivery[]> {
  const { rows } = await sql<ClaimedAlertDelivery>`
    UPDATE alert_deliveries d SET next_attempt_at = ${at.leaseUntil}
      FROM alerts a
     WHERE a.id = d.alert_id
       AND d.id IN (SELECT due.id FROM alert_deliveries due
                     WHERE due.status IN ('pending', 'retrying') AND due.next_attempt_at <= ${at.now}
                     ORDER BY due.next_attempt_at, due.id LIMIT ${at.limit}
                       FOR UPDATE SKIP LOCKED)
    RETURNING d.id, d.alert_id, d.event, d.channel, d.target, d.failures,
              a.kind, a.subject, a.message, a.details, a.started_at, a.cleared_at`.execute(db)
  return rows.map((r) => ({ ...r, id: Number(r.id), alert_id: Number(r.alert_id) }))
}

export type AlertAttempt = { attempted_at: string; ok: boolean; error: string | null; duration_ms: number }

/** One attempt recorded: appended to the log, with the status and next attempt it leads to (a delivery already settled is left). */
export async function recordAlertAttempt(
  db: Database,
  id: number,
  r: { attempt: AlertAttempt; status: 'delivered' | 'retrying' | 'failed'; failures: number; nextAttemptAt: Date | null },
): Promise<void> {
  await sql`
    UPDATE alert_deliveries
       SET attempts = attempts || ${JSON.stringify([r.attempt])}::jsonb, status = ${r.status}, failures = ${r.failures},
           next_attempt_at = ${r.nextAttemptAt}, delivered_at = CASE WHEN ${r.status} = 'delivered' THEN now() END
     WHERE id = ${id} AND status IN ('pending', 'retrying')`.execute(db)
}

/** The webhook channel's signing secret as stored (sealed under APP_KEY), or null. */
export async function alertWebhookSecret(db: Database): Promise<string | null> {
  const row = await db.selectFrom('alert_channels').select('webhook_secret_enc').executeTakeFirst()
  return row?.webhook_secret_enc ?? null
}
