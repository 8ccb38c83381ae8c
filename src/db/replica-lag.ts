import { sql } from 'kysely'
import type pg from 'pg'
import type { Database } from './database.js'

/** A write-ahead log position (`16/B374D848`) as a number that compares. */
export function lsnOf(text: string): bigint {
  const [high, low] = text.split('/')
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`)
}

/** What one check of a replica found. */
export type ReplicaReading = {
  /** False when the server is no standby (a replica promoted, or the primary itself): it lags nothing. */
  standby: boolean
  replayed: bigint | undefined
  /** Milliseconds since the commit it replayed last was made on the primary; undefined before any. */
  replayAgeMs: number | undefined
}

// Insert, not write: a commit made with synchronous_commit=off (the webhook pool's) may not be written yet.
export async function primaryPosition(db: Database): Promise<bigint> {
  const { rows } = await sql<{ lsn: string }>`SELECT pg_current_wal_insert_lsn()::text AS lsn`.execute(db)
  return lsnOf(rows[0].lsn)
}

const READING = `SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed,
  (extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::float8 AS replay_age_ms`

export async function readReplica(pool: pg.Pool): Promise<ReplicaReading> {
  const { rows } = await pool.query<{ standby: boolean; replayed: string | null; replay_age_ms: number | null }>(READING)
  const row = rows[0]
  return {
    standby: row.standby,
    replayed: row.replayed === null ? undefined : lsnOf(row.replayed),
    replayAgeMs: row.replay_age_ms ?? undefined,
  }
}

// Samples older than the longest lag worth telling apart are of no use; a floor for READ_MAX_LAG_MS=0.
const KEEP_SAMPLES_MS = (maxLagMs: number) => Math.max(2 * maxLagMs, 10_000)

/**
 * A replica's lag as the smaller of two upper bounds on how stale its reads are. It has every commit
 * up to the last one it replayed, so the age of that commit bounds it; but a primary that commits
 * nothing makes that age grow while the replica is caught up. And it has everything the primary had
 * when this process last saw the primary's position at or below its replay position.
 */
export function createLagMeter(maxLagMs: number) {
  const samples: { at: number; lsn: bigint }[] = []
  return {
    /** The primary's position just now (read before the replicas are, so a replica at it was caught up then). */
    sample(lsn: bigint, at = Date.now()) {
      samples.push({ at, lsn })
      while (samples.length > 0 && samples[0].at < at - KEEP_SAMPLES_MS(maxLagMs)) samples.shift()
    },
    lagMs(reading: ReplicaReading, now = Date.now()): number {
      if (!reading.standby) return 0
      let bound = reading.replayAgeMs ?? Infinity
      const { replayed } = reading
      if (replayed !== undefined)
        for (let i = samples.length - 1; i >= 0; i--)
          if (samples[i].lsn <= replayed) {
            bound = Math.min(bound, now - samples[i].at)
            break
          }
      return Math.max(0, bound)
    },
  }
}
