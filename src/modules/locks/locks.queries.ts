import { sql } from 'kysely'
import type { Database, PreparedStatement } from '../../db/database.js'
import { raisingAppErrors } from '../../db/functions/app-errors.js'

// Single statements bots call often: named prepared statements (on PostgreSQL planned once per connection).
const ACTIVE_LOCKS = `
  SELECT token AS lock_token, item_id, quantity, locked_at, expires_at,
         ceil(extract(epoch FROM expires_at - clock_timestamp()))::integer AS remaining_seconds
    FROM stock_locks
   WHERE account_id = $1 AND status = 'active' AND expires_at > clock_timestamp()
   ORDER BY id`
const RELEASE = `
  UPDATE stock_locks SET status = 'released', finished_at = clock_timestamp()
   WHERE token = $1 AND account_id = $2 AND status = 'active' AND expires_at > clock_timestamp()
  RETURNING token, finished_at`
const CREATE_LOCK = 'SELECT * FROM create_lock($1, $2, $3, $4, $5::text[], $6, $7)'
const REFUSE_UNUSABLE = 'SELECT refuse_unusable_lock(status, expires_at) FROM stock_locks WHERE token = $1 AND account_id = $2'

export type ActiveLockRow = {
  lock_token: string
  item_id: number
  quantity: number
  locked_at: Date
  expires_at: Date
  remaining_seconds: number
}

/** The account's active, unexpired locks, timed by the database clock. */
export const findActiveLocks = (prepared: PreparedStatement, accountId: number) =>
  prepared<ActiveLockRow>('active_locks', ACTIVE_LOCKS, [accountId])

/** Releases the lock if it is the account's, active and unexpired: its row, else nothing. */
export async function markLockReleased(prepared: PreparedStatement, accountId: number, token: string) {
  const [released] = await prepared<{ token: string; finished_at: Date }>('release_lock', RELEASE, [token, accountId])
  return released
}

/** refuse_unusable_lock() (locks.sql) on the account's lock: raises its state's code; no row when there is no such lock. */
export async function refuseUnusableLockRow(prepared: PreparedStatement, accountId: number, token: string) {
  return raisingAppErrors(prepared<unknown>('refuse_unusable_lock', REFUSE_UNUSABLE, [token, accountId]))
}

export type CreateLockCall = {
  accountId: number
  itemId: number
  quantity: number
  seconds: number
  processes: readonly string[]
  defaultCap: number
  token: string
}
export type CreatedLockRow = { lock_token: string; item_id: number; quantity: number; locked_at: Date; expires_at: Date }

/** create_lock() (locks.sql): the new lock, or its refusal as an AppError. */
export async function insertLock(prepared: PreparedStatement, c: CreateLockCall): Promise<CreatedLockRow> {
  const values = [c.accountId, c.itemId, c.quantity, c.seconds, c.processes, c.defaultCap, c.token]
  const [lock] = await raisingAppErrors(prepared<CreatedLockRow>('create_lock', CREATE_LOCK, values))
  return lock
}

/** Marks up to `batch` active locks past expires_at as expired then (rows another sweep holds are skipped); how many. */
export async function expireLocksPastTheirTime(db: Database, batch: number): Promise<number> {
  const result = await sql`
    UPDATE stock_locks SET status = 'expired', finished_at = expires_at
     WHERE id IN (SELECT id FROM stock_locks WHERE status = 'active' AND expires_at <= clock_timestamp()
                   ORDER BY id LIMIT ${batch} FOR UPDATE SKIP LOCKED)`.execute(db)
  return Number(result.numAffectedRows ?? 0)
}
