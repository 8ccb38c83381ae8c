import { sql } from 'kysely'
import type { Database, Trx } from '../../db/database.js'

/** Counts an order that just turned `completed`, inside that transaction (leaderboard.sql holds the rule). */
export async function countCompletedOrder(trx: Trx, orderId: number): Promise<void> {
  await sql`SELECT leaderboard_count_order(${orderId}::bigint)`.execute(trx)
}

/** Where leaderboard.sql finds LEADERBOARD_TZ: recorded at start, so every process and function uses the configured zone. */
export async function recordLeaderboardZone(db: Database, zone: string): Promise<void> {
  await sql`INSERT INTO app_meta (key, value) VALUES ('leaderboard_tz', ${zone})
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value WHERE app_meta.value <> EXCLUDED.value`.execute(db)
}

// The asked month's first day, or the current month in LEADERBOARD_TZ.
const monthOf = (month: string | undefined) => sql`coalesce(${month ? `${month}-01` : null}::date, leaderboard_month(now()))`

export type Profile = { month: string; rank: number; total_transactions: number; points: number }

/** Rank = 1 + accounts with more points that month: a range of leaderboard_months_rank_idx, never a sort. */
export const profileQuery = (accountId: number, month: string | undefined) => sql<Profile>`
  WITH m AS (SELECT ${monthOf(month)} AS month),
       mine AS (SELECT l.transactions, l.points FROM leaderboard_months l, m WHERE l.account_id = ${accountId} AND l.month = m.month)
  SELECT to_char(m.month, 'YYYY-MM') AS month,
         coalesce((SELECT transactions FROM mine), 0) AS total_transactions,
         coalesce((SELECT points FROM mine), 0) AS points,
         1 + (SELECT count(*) FROM leaderboard_months l
               WHERE l.month = m.month AND l.points > coalesce((SELECT points FROM mine), 0)) AS rank
    FROM m`

export async function readProfile(db: Database, accountId: number, month: string | undefined): Promise<Profile> {
  const { rows } = await profileQuery(accountId, month).execute(db)
  return rows[0]
}

export type Leader = { rank: number; name: string; total_transactions: number; points: number }

/** The month's first ten by points (ties share a rank; among them, the older account first): the head of the rank index. */
export const topTenQuery = (month: string | undefined) => sql<Leader>`
  WITH top AS (SELECT account_id, transactions, points FROM leaderboard_months
                WHERE month = ${monthOf(month)} ORDER BY points DESC, account_id LIMIT 10)
  SELECT rank() OVER (ORDER BY top.points DESC) AS rank, a.name, top.transactions AS total_transactions, top.points
    FROM top JOIN accounts a ON a.id = top.account_id
   ORDER BY top.points DESC, top.account_id`

export async function readTopTen(db: Database, month: string | undefined): Promise<Leader[]> {
  return (await topTenQuery(month).execute(db)).rows
}
