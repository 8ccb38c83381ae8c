import { sql } from 'kysely'
import type { Database, Trx } from '../../db/database.js'
import type { PageWindow } from '../../db/keyset-paging.js'
import { listPage } from '../../db/keyset-paging.js'
import type { AlertChannel, AlertKind } from '../../db/schema.js'

/** A condition as an evaluation sees it now: what it is about, and what to say. */
export type Firing = { subject: string; message: string; details?: Record<string, unknown> }

/** Where alerts go now (alert_channels): one target per channel set. */
export type Targets = Partial<Record<AlertChannel, string>>

export type AlertRow = {
  id: number
  kind: AlertKind
  subject: string
  message: string
  details: Record<string, unknown>
  started_at: Date
  cleared_at: Date | null
}

/**
 * One kind's alerts brought in line with what fires now, in one transaction: each firing subject
 * without an open alert opens one, each open alert no longer firing clears; every change writes a
 * delivery per channel set (an outbox: the delivery worker sends them). Two evaluations at once
 * open an alert once (the open alert's unique index) and clear it once (the conditional update).
 */
export async function reconcileKind(
  trx: Trx,
  kind: AlertKind,
  firing: Firing[],
  targets: Targets,
): Promise<{ started: number; cleared: number }> {
  const subjects = firing.map((f) => f.subject)
  const { rows: started } = await sql<{ id: number }>`
    INSERT INTO alerts (kind, subject, message, details)
    SELECT ${kind}, f.subject, f.message, f.details
      FROM jsonb_to_recordset(${JSON.stringify(firing.map((f) => ({ ...f, details: f.details ?? {} })))}::jsonb)
           AS f(subject text, message text, details jsonb)
    ON CONFLICT (kind, subject) WHERE cleared_at IS NULL DO NOTHING
    RETURNING id`.execute(trx)
  const { rows: cleared } = await sql<{ id: number }>`
    UPDATE alerts SET cleared_at = greatest(now(), started_at)
     WHERE kind = ${kind} AND cleared_at IS NULL AND NOT (subject = ANY (${subjects}::text[]))
    RETURNING id`.execute(trx)
  await writeDeliveries(
    trx,
    started.map((r) => r.id),
    'started',
    targets,
  )
  await writeDeliveries(
    trx,
    cleared.map((r) => r.id),
    'cleared',
    targets,
  )
  return { started: started.length, cleared: cleared.length }
}

async function writeDeliveries(trx: Trx, alertIds: number[], event: 'started' | 'cleared', targets: Targets) {
  const channels = Object.entries(targets).filter(([, target]) => target) as [AlertChannel, string][]
  if (alertIds.length === 0 || channels.length === 0) return
  await sql`
    INSERT INTO alert_deliveries (alert_id, event, channel, target, next_attempt_at)
    SELECT a, ${event}, c.channel, c.target, now()
      FROM unnest(${alertIds}::bigint[]) a,
           unnest(${channels.map(([c]) => c)}::text[], ${channels.map(([, t]) => t)}::text[]) AS c(channel, target)
    ON CONFLICT (alert_id, event, channel) DO NOTHING`.execute(trx)
}

/** The channels as set (none yet: all unset); the webhook's secret still sealed. */
export async function channelsRow(db: Database | Trx) {
  return db
    .selectFrom('alert_channels')
    .select(['email_to', 'telegram_chat_id', 'webhook_url', 'webhook_secret_enc', 'updated_at'])
    .executeTakeFirst()
}

/** A page of alerts, newest first; `open` true only those not cleared, false only cleared ones; `kind` one kind. */
export async function listAlertRows(db: Database, f: { open?: boolean; kind?: AlertKind }, w: PageWindow) {
  let filtered = db.selectFrom('alerts')
  if (f.open === true) filtered = filtered.where('cleared_at', 'is', null)
  if (f.open === false) filtered = filtered.where('cleared_at', 'is not', null)
  if (f.kind) filtered = filtered.where('kind', '=', f.kind)
  const rows = filtered.select(['id', 'kind', 'subject', 'message', 'details', 'started_at', 'cleared_at'])
  return listPage<AlertRow>(db, filtered as never, rows as never, w)
}
