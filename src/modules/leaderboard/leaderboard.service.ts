import type { PreparedStatement } from '../../db/database.js'
import { rankIn, type LeaderboardCache } from './leaderboard-snapshot.js'
import { readOwnMonth, readTopTen } from './leaderboard.queries.js'

// What other modules call: recording the zone at start (the outbox relay counts completed orders: leaderboard.sql).
export { recordLeaderboardZone } from './leaderboard.queries.js'

/**
 * A name others may see on the leaderboard: `***` between its first two and last two characters
 * (`Abadi Gaming` → `Ab***ng`); names of 3–4 keep one at each end, shorter ones only the first.
 * The mask is always three stars, so it hides the length too.
 */
export function maskName(name: string): string {
  const chars = Array.from(name.trim())
  const keep = chars.length >= 5 ? 2 : chars.length >= 3 ? 1 : 0
  if (keep === 0) return `${chars.slice(0, 1).join('')}***`
  return `${chars.slice(0, keep).join('')}***${chars.slice(-keep).join('')}`
}

/** The month's top ten as others see them: masked names. */
export async function topTen(prepared: PreparedStatement, month: string | undefined) {
  const leaders = await readTopTen(prepared, month)
  return leaders.map((l) => ({ rank: l.rank, display_name: maskName(l.name), total_transactions: l.total_transactions, points: l.points }))
}

export type Profile = { month: string; rank: number; total_transactions: number; points: number }

/**
 * The caller's month: its own points and transactions from its row (every completion the outbox
 * relay has taken, normally milliseconds after the commit), its rank from this process's snapshot
 * of the month (at most a second behind others' sales), at the same cost with 10 or 100,000 accounts.
 */
export async function profile(
  prepared: PreparedStatement,
  board: LeaderboardCache,
  accountId: number,
  month: string | undefined,
): Promise<Profile> {
  const own = await readOwnMonth(prepared, accountId, month)
  const snapshot = await board.month(own.month)
  return {
    month: own.month,
    rank: rankIn(snapshot, accountId, own.points),
    total_transactions: own.transactions ?? 0,
    points: own.points ?? 0,
  }
}
