import type { Database } from '../../db/database.js'
import { monthPointsQuery } from './leaderboard.queries.js'

/** One month's points as this process last read them. */
export type MonthSnapshot = {
  /** Every account's points that month, highest first. */
  points: Float64Array
  /** The same, by account: the caller's own entry may be older than its row. */
  byAccount: Map<number, number>
  generation: number
  takenAt: number
}

/**
 * Each month's points, kept per process like the catalog's snapshot (catalog-snapshot.ts): at most
 * `maxAgeMs` old (past half of it a read starts the renewal and is served the current snapshot;
 * past all of it a read waits for a new one). A sale writes only its own account's row; a read's
 * rank is a binary search here, whatever the number of accounts. So a rank may lag others' sales by
 * at most maxAgeMs; the caller's own points and counts are read exactly from its row.
 */
export type LeaderboardCache = {
  /** The month's snapshot; `month` is YYYY-MM. */
  month(month: string): Promise<MonthSnapshot>
  /** Every sale committed so far must show: the next read of any month waits for a new snapshot. */
  invalidate(): void
}

// The current month, the one before, and a few others asked for: each costs a map of its accounts.
const MAX_MONTHS = 4

async function takeSnapshot(db: Database, month: string, generation: number): Promise<MonthSnapshot> {
  const takenAt = Date.now()
  const { rows } = await monthPointsQuery(month).execute(db)
  const points = new Float64Array(rows.length)
  const byAccount = new Map<number, number>()
  rows.forEach((row, i) => {
    points[i] = row.points
    byAccount.set(row.account_id, row.points)
  })
  return { points, byAccount, generation, takenAt }
}

type Slot = { snapshot?: MonthSnapshot; building?: { generation: number; promise: Promise<MonthSnapshot> } }

export function createLeaderboardCache(db: Database, maxAgeMs = 1000): LeaderboardCache {
  const slots = new Map<string, Slot>()
  let generation = 0

  const renew = (month: string, slot: Slot): Promise<MonthSnapshot> => {
    if (slot.building?.generation === generation) return slot.building.promise
    const promise = takeSnapshot(db, month, generation)
      .then((taken) => {
        const s = slot.snapshot
        if (!s || taken.generation > s.generation || taken.takenAt > s.takenAt) slot.snapshot = taken
        return taken
      })
      .finally(() => {
        if (slot.building?.promise === promise) slot.building = undefined
      })
    slot.building = { generation, promise }
    return promise
  }

  // Map order is use order: the least recently read month goes first.
  const slotOf = (month: string): Slot => {
    const slot = slots.get(month) ?? {}
    slots.delete(month)
    slots.set(month, slot)
    if (slots.size > MAX_MONTHS) slots.delete(slots.keys().next().value as string)
    return slot
  }

  return {
    async month(month) {
      const slot = slotOf(month)
      const s = slot.snapshot
      if (s && s.generation === generation) {
        const age = Date.now() - s.takenAt
        if (age < maxAgeMs / 2) return s
        // A failed background renewal leaves the next read to try (and report) it.
        if (age < maxAgeMs) {
          renew(month, slot).catch(() => {})
          return s
        }
      }
      return renew(month, slot)
    },
    invalidate() {
      generation++
    },
  }
}

/** Entries of `points` (highest first) above `p`: a binary search. */
function countAbove(points: Float64Array, p: number): number {
  let lo = 0
  let hi = points.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (points[mid] > p) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * 1 + the accounts with more points than the caller's exact `points`, its own (maybe older) entry
 * left out; ties share a rank. Without a row of its own that month (`points` null) the caller had
 * no completion: after every account that had one, even at 0 points.
 */
export function rankIn(s: MonthSnapshot, accountId: number, points: number | null): number {
  const own = s.byAccount.get(accountId)
  if (points === null) return 1 + s.points.length - (own === undefined ? 0 : 1)
  return 1 + countAbove(s.points, points) - (own !== undefined && own > points ? 1 : 0)
}
