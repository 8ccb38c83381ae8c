import type { Database } from '../../db/database.js'
import { recordAttempts, type AttemptRecord } from './delivery.queries.js'

// How long the first record waits for others: an order's paid and completed events are answered
// within a millisecond or two of each other. Arrival is not delayed, only the record of it.
const GATHER_MS = 3

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
