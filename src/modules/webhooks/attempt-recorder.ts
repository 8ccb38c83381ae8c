import type { Database } from '../../db/database.js'
import { recordAttempts, type AttemptRecord } from './delivery.queries.js'

// How long the first record waits for others. Arrival is not delayed, only the record of it (the
// slot frees at the answer; the lease covers the wait). 3 ms took a statement per few answers:
// at 960 purchases/s, 20 ms cut PostgreSQL's share by 4–8 points of a core; 50 ms, a few more
// (with passes 10 ms apart: workers/wake-loop.ts).
const GATHER_MS = 50

/**
 * Group commit for attempt records: what arrives within GATHER_MS of the first record, or while a
 * write is under way, goes out together, so a worker writes one statement per batch rather than
 * one per attempt.
 */
export function createAttemptRecorder(db: Database) {
  let queue: { record: AttemptRecord; done: (error?: unknown) => void }[] = []
  let writing = false
  const write = async () => {
    while (queue.length > 0) {
      const batch = queue
      queue = []
      const error = await recordAttempts(
        db,
        batch.map((b) => b.record),
      ).then(
        () => undefined,
        (e: unknown) => e ?? new Error('record failed'),
      )
      batch.forEach((b) => b.done(error))
    }
    writing = false
  }
  return {
    /** Resolves once the record is written. */
    record(record: AttemptRecord): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        queue.push({ record, done: (error) => (error ? reject(error) : resolve()) })
        if (writing) return
        writing = true
        setTimeout(() => void write(), GATHER_MS)
      })
    },
  }
}
