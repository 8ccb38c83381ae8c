import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import type { AlertKind } from '../../db/schema.js'
import { overdueComplaints } from '../complaints/index.js'
import type { Firing } from './alerts.queries.js'

// What fires now, one function per kind (docs/design.md §11e): subject a provider's code, an
// account's id or '' for the store; the message short, in plain English, with the numbers.

/** What a condition needs besides the database: the configuration's thresholds. */
export type ConditionSettings = { failurePercent: number; complaintSlaHours: number }

const idr = (n: number) => `IDR ${Math.round(n).toLocaleString('en-US')}`
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`
// Minutes by the database's clock, the one every condition's window is read by.
const MINUTES_SINCE = (column: string) => sql.raw(`floor(extract(epoch FROM now() - ${column}) / 60)::int`)

/**
 * A switched-on provider whose last read IDR balance is under its `balance_alert_below`, or lasts
 * fewer than `balance_alert_hours` at the last 24 hours' spend (the spend as GET /providers/{code}/balance counts it).
 */
export async function supplierBalanceLow(db: Database): Promise<Firing[]> {
  const { rows } = await sql<{ code: string; balance: string; below: string | null; hours: string | null; spent: string }>`
    SELECT p.code, b.balance::text, p.balance_alert_below::text AS below, p.balance_alert_hours::text AS hours, s.spent::text
      FROM providers p
      JOIN provider_balances b ON b.provider = p.code
      CROSS JOIN LATERAL (SELECT provider_spent_24h(p.code) AS spent) s
     WHERE p.active AND b.balance IS NOT NULL AND b.currency = 'IDR'
       AND (b.balance < p.balance_alert_below OR (s.spent > 0 AND b.balance / s.spent * 24 < p.balance_alert_hours))
     ORDER BY p.code`.execute(db)
  return rows.map((r) => {
    const balance = Number(r.balance)
    const spent = Number(r.spent)
    const hoursLeft = spent > 0 ? Math.floor((balance / spent) * 24 * 10) / 10 : null
    const under = r.below !== null && balance < Number(r.below)
    const why = under
      ? `under its threshold of ${idr(Number(r.below))}`
      : `${hoursLeft} hours left at the last 24 hours' spend of ${idr(spent)} (alert under ${Number(r.hours)})`
    return {
      subject: r.code,
      message: `Supplier ${r.code}: balance ${idr(balance)}, ${why}`,
      details: { balance, threshold: r.below === null ? null : Number(r.below), hours_left: hoursLeft, spent_24h: spent },
    }
  })
}

export type FailureReading = { provider: string; failed: number; finished: number }

/** Per provider, the upstream requests finished in the last 10 minutes and how many of them failed definitely. */
export async function failureReadings(db: Database): Promise<FailureReading[]> {
  const { rows } = await sql<FailureReading>`
    SELECT provider, (count(*) FILTER (WHERE status = 'failed'))::int AS failed, count(*)::int AS finished
      FROM dispatches
     WHERE status IN ('completed', 'failed') AND finished_at > now() - interval '10 minutes'
     GROUP BY provider ORDER BY provider`.execute(db)
  return rows
}

/** A provider with at least 20 requests finished in the last 10 minutes, more than `failurePercent` % of them definite failures. */
export async function providerFailures(db: Database, s: ConditionSettings): Promise<Firing[]> {
  const rows = (await failureReadings(db)).filter((r) => r.finished >= 20 && r.failed * 100 > s.failurePercent * r.finished)
  return rows.map((r) => {
    const percent = Math.round((r.failed * 100) / r.finished)
    return {
      subject: r.provider,
      message: `Provider ${r.provider}: ${r.failed} of ${r.finished} requests failed in the last 10 minutes (${percent}%, alert over ${s.failurePercent}%)`,
      details: { finished: r.finished, failed: r.failed, percent },
    }
  })
}

/** The oldest queued upstream request of a switched-on provider, when it has waited more than 2 minutes. */
export async function upstreamQueueStalled(db: Database): Promise<Firing[]> {
  const { rows } = await sql<{ oldest: Date; queued: number; minutes: number }>`
    SELECT min(d.created_at) AS oldest, count(*)::int AS queued, ${MINUTES_SINCE('min(d.created_at)')} AS minutes
      FROM dispatches d JOIN providers p ON p.code = d.provider AND p.active
     WHERE d.status = 'queued'
    HAVING min(d.created_at) < now() - interval '2 minutes'`.execute(db)
  return rows.map((r) => ({
    subject: '',
    message: `Upstream queue stalled: the oldest of ${plural(r.queued, 'queued request')} has waited ${r.minutes} minutes`,
    details: { queued: r.queued, oldest_at: new Date(r.oldest).toISOString() },
  }))
}

/**
 * An account (webhooks on) whose deliveries have failed for 30 minutes: its oldest failing delivery
 * first failed 30 or more minutes ago, and nothing was delivered to it since.
 */
export async function webhookFailing(db: Database): Promise<Firing[]> {
  const { rows } = await sql<{ account_id: number; name: string; failing: number; since: Date; minutes: number }>`
    SELECT f.account_id, a.name, f.failing, f.since, ${MINUTES_SINCE('f.since')} AS minutes
      FROM (SELECT d.account_id, count(*)::int AS failing,
                   min((d.attempts -> 0 ->> 'attempted_at')::timestamptz) AS since
              FROM webhook_deliveries d
             WHERE d.status IN ('retrying', 'failed')
             GROUP BY d.account_id) f
      JOIN accounts a ON a.id = f.account_id
      JOIN webhook_settings w ON w.account_id = f.account_id AND w.webhook_enabled AND w.callback_url IS NOT NULL
     WHERE f.since <= now() - interval '30 minutes'
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries ok
                        WHERE ok.account_id = f.account_id AND ok.status = 'delivered' AND ok.delivered_at > f.since)
     ORDER BY f.account_id`.execute(db)
  return rows.map((r) => ({
    subject: String(r.account_id),
    message: `Webhooks of account ${r.account_id} (${r.name}) failing for ${r.minutes} minutes: ${plural(r.failing, 'delivery', 'deliveries')} not delivered`,
    details: { account_id: Number(r.account_id), failing: r.failing, since: new Date(r.since).toISOString() },
  }))
}

/** Top-ups waiting for an operator (status `review`: the gateway reported another paid total). */
export async function topupsInReview(db: Database): Promise<Firing[]> {
  const row = await db
    .selectFrom('topups')
    .where('status', '=', 'review')
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow()
  const n = Number(row.n)
  return n === 0 ? [] : [{ subject: '', message: `${plural(n, 'top-up')} in review`, details: { count: n } }]
}

/** Credits on the bank account matched to no top-up. */
export async function bankMutationsUnmatched(db: Database): Promise<Firing[]> {
  const row = await db
    .selectFrom('bank_mutations')
    .where('status', '=', 'unmatched')
    .where('type', '=', 'CR')
    .select([sql<number>`count(*)::int`.as('n'), sql<string>`coalesce(sum(amount), 0)::text`.as('total')])
    .executeTakeFirstOrThrow()
  const n = Number(row.n)
  if (n === 0) return []
  const total = Number(row.total)
  return [{ subject: '', message: `${plural(n, 'bank credit')} unmatched (${idr(total)} in all)`, details: { count: n, total } }]
}

/** Open complaints whose reseller has waited past COMPLAINT_SLA_HOURS (the queue's `overdue`). */
export async function complaintsOverdue(db: Database, s: ConditionSettings): Promise<Firing[]> {
  const { count, oldest } = await overdueComplaints(db, s.complaintSlaHours)
  if (count === 0) return []
  return [
    {
      subject: '',
      message: `${plural(count, 'complaint')} past the ${s.complaintSlaHours}-hour SLA`,
      details: { count, oldest_waiting_since: oldest?.toISOString() ?? null },
    },
  ]
}

/** Every kind's condition, in the order an evaluation runs them. */
export const CONDITIONS: Record<AlertKind, (db: Database, s: ConditionSettings) => Promise<Firing[]>> = {
  supplier_balance_low: supplierBalanceLow,
  provider_failures: providerFailures,
  upstream_queue_stalled: upstreamQueueStalled,
  webhook_failing: webhookFailing,
  topups_in_review: topupsInReview,
  bank_mutations_unmatched: bankMutationsUnmatched,
  complaints_overdue: complaintsOverdue,
}
