import type { Database } from '../../db/database.js'
import { recordAttempts, type AttemptRecord } from './delivery.queries.js'

/**
 * Group commit for attempt records: what arrives while a write is under way goes out together in
 * the next one, so a busy worker writes one statement per batch rather than one per attempt.
 */
export function createAttemptRecorder(db: Database) {
  let queue: { record: AttemptRecord; done: (error?: unknown) => void }[] = []
  let writing = false
  const write = async () => {
    writing = true
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
        if (!writing) void write()
      })
    },
  }
}
