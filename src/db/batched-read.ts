/**
 * A read by key that joins the other reads of its kind asked for within one turn of the event
 * loop: one statement (one round trip, one wake-up of PostgreSQL) answers all of them. Under load
 * many requests share a statement; alone, a read waits only for the end of the current turn.
 * A read never joins a statement already sent, so it sees every commit made before it was asked.
 */
export type BatchedRead<K, R> = (key: K) => Promise<R | undefined>

type Waiter<R> = { resolve: (row: R | undefined) => void; reject: (error: unknown) => void }
type Options = {
  maxKeys?: number
  /** Errors every key would meet alike (the database gone): not worth asking key by key. */
  sharedFailure?: (error: unknown) => boolean
}

export function batchedRead<K, R>(readMany: (keys: K[]) => Promise<Map<K, R>>, options: Options = {}): BatchedRead<K, R> {
  const { maxKeys = 500, sharedFailure = () => false } = options
  let pending = new Map<K, Waiter<R>[]>()
  let scheduled = false

  const answer = (batch: Map<K, Waiter<R>[]>, keys: K[]) =>
    readMany(keys).then(
      (rows) => {
        for (const key of keys) for (const waiter of batch.get(key)!) waiter.resolve(rows.get(key))
      },
      (error: unknown) => {
        // One key's failure (a value the statement refused) must not fail the others: each on its own.
        if (keys.length > 1 && !sharedFailure(error)) for (const key of keys) void answer(batch, [key])
        else for (const key of keys) for (const waiter of batch.get(key)!) waiter.reject(error)
      },
    )

  const flush = () => {
    scheduled = false
    const batch = pending
    pending = new Map()
    const keys = [...batch.keys()]
    for (let i = 0; i < keys.length; i += maxKeys) void answer(batch, keys.slice(i, i + maxKeys))
  }

  return (key) =>
    new Promise<R | undefined>((resolve, reject) => {
      const waiters = pending.get(key)
      if (waiters) waiters.push({ resolve, reject })
      else pending.set(key, [{ resolve, reject }])
      if (!scheduled) {
        scheduled = true
        // After the poll phase: every request read from the sockets in this turn has asked by then.
        setImmediate(flush)
      }
    })
}
