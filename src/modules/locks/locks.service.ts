import crypto from 'node:crypto'
import { retrying, type Database, type PreparedStatement } from '../../db/database.js'
import { AppError } from '../../errors.js'
import { expireLocksPastTheirTime, findActiveLocks, insertLock, markLockReleased, refuseUnusableLockRow } from './locks.queries.js'

type LockInput = { item_id: number; quantity: number; lock_duration?: number }

/** POST /v1/item/lock: one call of create_lock() (locks.sql), which checks in docs/design.md §6 order and holds the stock. */
export async function createLock(
  prepared: PreparedStatement,
  limits: { defaultCap: number; fulfillable: readonly string[] },
  accountId: number,
  input: LockInput,
) {
  const call = {
    accountId,
    itemId: input.item_id,
    quantity: input.quantity,
    seconds: input.lock_duration ?? 600,
    processes: limits.fulfillable,
    defaultCap: limits.defaultCap,
    token: `LCK-${crypto.randomBytes(16).toString('hex')}`,
  }
  // A deadlock with a purchase or an operator's edit is worth another go.
  return retrying(() => insertLock(prepared, call))
}

/** GET /v1/item/lock: the caller's active, unexpired locks, timed by the database clock. */
export async function listActiveLocks(prepared: PreparedStatement, accountId: number) {
  const rows = await findActiveLocks(prepared, accountId)
  return rows.map((r) => ({ ...r, status: 'active' as const }))
}

/** DELETE /v1/item/lock/{token}: one conditional update; a lock past expires_at is expired, swept or not. */
export async function releaseLock(prepared: PreparedStatement, accountId: number, token: string) {
  const released = await markLockReleased(prepared, accountId, token)
  if (released) return { lock_token: released.token, status: 'released' as const, released_at: released.finished_at }
  // LOCK_NOT_FOUND, or the code of its state.
  const rows = await refuseUnusableLockRow(prepared, accountId, token)
  if (rows.length === 0) throw new AppError('LOCK_NOT_FOUND')
  // Not refused: it was active and unexpired a moment ago, so it ran out in between.
  throw new AppError('LOCK_EXPIRED')
}

/** Marks locks past their time as expired (their stock was free from expires_at on anyway). */
export async function sweepExpiredLocks(db: Database, batch = 500): Promise<number> {
  return expireLocksPastTheirTime(db, batch)
}
