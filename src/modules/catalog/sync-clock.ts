import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

/**
 * The delta-sync cursor of a snapshot, from transaction ids alone (no pg_stat_activity, no extra
 * privileges). An observation is a time and then a transaction id taken after it: every id above it
 * was handed out later. Catalog changes are stamped after their transaction has its id
 * (catalog_change_time(), or a clock read after the row locks), and every change a snapshot cannot
 * see belongs to a transaction at or above the snapshot's xmin. So the latest observation whose id is
 * below that xmin is a time before every change the snapshot missed: the next delta from it sees them.
 */
/** The xmin of the statement's own snapshot, as a column of the statement that reads the catalog. */
export const snapshotXmin = sql<string>`pg_snapshot_xmin(pg_current_snapshot())::text`

export type Observation = { at: Date; xid: bigint }

// Enough for a transaction held open for hours; older history is thinned, never lost entirely.
const MAX_OBSERVATIONS = 4096

export type SyncClock = {
  /** Notes a time and a transaction id handed out after it; also answers the xmin of that statement's snapshot. */
  observe(db: Database): Promise<Observation & { xmin: bigint }>
  /** The cursor of a snapshot with this xmin; undefined when every observation is too recent. */
  cursorFor(xmin: bigint): Date | undefined
}

export function createSyncClock(): SyncClock {
  const observations: Observation[] = []
  return {
    async observe(db) {
      // The subquery reads the clock before the outer row takes the transaction id.
      const { rows } = await sql<{ at: Date; xid: string; xmin: string }>`
        SELECT at, pg_current_xact_id()::text AS xid, ${snapshotXmin} AS xmin FROM (SELECT clock_timestamp() AS at OFFSET 0) t`.execute(db)
      const observation = { at: rows[0].at, xid: BigInt(rows[0].xid) }
      if (observations.length >= MAX_OBSERVATIONS) {
        // Keep every other one: the span doubles, the precision of old cursors halves.
        for (let i = 1; i < observations.length / 2; i++) observations[i] = observations[i * 2]
        observations.length = Math.floor(observations.length / 2)
      }
      observations.push(observation)
      return { ...observation, xmin: BigInt(rows[0].xmin) }
    },
    cursorFor(xmin) {
      for (let i = observations.length - 1; i >= 0; i--) if (observations[i].xid < xmin) return observations[i].at
      return undefined
    },
  }
}
