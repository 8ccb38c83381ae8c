import { sql } from 'kysely'
import type { Database, PreparedStatement } from '../../db/database.js'

/** Where leaderboard.sql finds LEADERBOARD_TZ: recorded at start, so every process and function uses the configured zone. */
export async function recordLeaderboardZone(db: Database, zone: string): Promise<void> {
  await sql`INSERT INTO app_meta (key, value) VALUES ('leaderboard_tz', ${zone})
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value WHERE app_meta.value <> EXCLUDED.value`.execute(db)
}

// The asked month's first day; null asks for the current month in LEADERBOARD_TZ.
const monthDay = (month: string | undefined) => (month ? `${month}-01` : null)

export type OwnMonth = { month: string; transactions: number | null; points: number | null }

/**
 * The caller's own row of the month, exact (null counts: no completion that month): the primary
 * key, one row. Every profile read runs it, as a named prepared statement on PostgreSQL ($2: the
 * asked month's first day, or null for the current one).
 */
export const OWN_MONTH = `SELECT to_char(m.month, 'YYYY-MM') AS month, l.transactions, l.points
    FROM (SELECT coalesce($2::date, leaderboard_month(now())) AS month) m
    LEFT JOIN leaderboard_months l ON l.account_id = $1::int8 AND l.month = m.month`

export const ownMonthValues = (accountId: number, month: string | undefined) => [accountId, monthDay(month)]

export async function readOwnMonth(prepared: PreparedStatement, accountId: number, month: string | undefined): Promise<OwnMonth> {
  const [own] = await prepared<OwnMonth>('leaderboard_own_month', OWN_MONTH, ownMonthValues(accountId, month))
  return own
}

/** Every account's points in a month (YYYY-MM), highest first: one range of leaderboard_months_rank_idx, no sort. */
export const monthPointsQuery = (month: string) => sql<{ account_id: number; points: number }>`
  SELECT account_id, points FROM leaderboard_months WHERE month = ${`${month}-01`}::date ORDER BY points DESC`

export type Leader = { rank: number; name: string; total_transactions: number; points: number }

/**
 * The month's first ten by points (ties share a rank; among them, the older account first): the
 * head of the rank index. A named prepared statement on PostgreSQL ($1 as in OWN_MONTH's $2).
 */
export const TOP_TEN = `WITH top AS (SELECT account_id, transactions, points FROM leaderboard_months
                WHERE month = coalesce($1::date, leaderboard_month(now())) ORDER BY points DESC, account_id LIMIT 10)
  SELECT rank() OVER (ORDER BY top.points DESC) AS rank, a.name, top.transactions AS total_transactions, top.points
    FROM top JOIN accounts a ON a.id = top.account_id
   ORDER BY top.points DESC, top.account_id`

export async function readTopTen(prepared: PreparedStatement, month: string | undefined): Promise<Leader[]> {
  return prepared<Leader>('leaderboard_top_ten', TOP_TEN, [monthDay(month)])
}
