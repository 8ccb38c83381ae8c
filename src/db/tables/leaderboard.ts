import type { GeneratedAlways, Generated } from 'kysely'

/** One account's month on the leaderboard (docs/design.md §9); written only by leaderboard.sql. */
export interface LeaderboardMonthsTable {
  account_id: number
  /** The first day of the month in LEADERBOARD_TZ. */
  month: Date
  transactions: Generated<number>
  /** Completed Rupiah, net of refunds. */
  amount: Generated<number>
  /** amount / 1000, rounded down. */
  points: GeneratedAlways<number>
}
