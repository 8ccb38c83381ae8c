import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

// What /metrics shows of the alert conditions (docs/design.md §11e), read at scrape time. Each
// statement stays on a small set: providers, queued requests (the due index), the open alerts (their
// unique index); the last ten minutes' failures are the alert's own reading (conditions.queries.ts).

export type BalanceReading = { provider: string; balance: number; currency: string; spent_24h: number }

/** Switched-on providers' last good balance read, with what their completed requests cost in 24 hours. */
export async function balanceReadings(db: Database): Promise<BalanceReading[]> {
  const { rows } = await sql<BalanceReading>`
    SELECT p.code AS provider, b.balance::float8 AS balance, b.currency,
           provider_spent_24h(p.code)::float8 AS spent_24h
      FROM providers p JOIN provider_balances b ON b.provider = p.code
     WHERE p.active AND b.balance IS NOT NULL AND b.currency IS NOT NULL
     ORDER BY p.code`.execute(db)
  return rows
}

/** Switched-on providers' low-balance thresholds (Rupiah), where set. */
export async function balanceThresholds(db: Database): Promise<{ provider: string; below: number }[]> {
  return db
    .selectFrom('providers')
    .select(['code as provider', 'balance_alert_below as below'])
    .where('active', '=', true)
    .where('balance_alert_below', 'is not', null)
    .orderBy('code')
    .execute() as Promise<{ provider: string; below: number }[]>
}

/** How long the oldest request still queued for its first send at a switched-on provider has waited, in seconds (0: none). */
export async function queueOldestSeconds(db: Database): Promise<number> {
  const { rows } = await sql<{ seconds: number }>`
    SELECT coalesce(extract(epoch FROM now() - min(d.created_at)), 0)::float8 AS seconds
      FROM dispatches d JOIN providers p ON p.code = d.provider AND p.active
     WHERE d.status = 'queued'`.execute(db)
  return Math.max(0, rows[0]?.seconds ?? 0)
}

/** Open alerts by kind. */
export async function openAlertCounts(db: Database): Promise<{ kind: string; open: number }[]> {
  const { rows } = await sql<{ kind: string; open: number }>`
    SELECT kind, count(*)::int AS open FROM alerts WHERE cleared_at IS NULL GROUP BY kind`.execute(db)
  return rows
}
