import crypto from 'node:crypto'
import { sql } from 'kysely'
import { inTransaction, type Database, type PreparedStatement } from '../../db/database.js'
import { AppError } from '../../errors.js'
import { refuseUnsellable } from '../catalog/sellable.js'
import * as stock from '../catalog/stock.service.js'
import { findActiveLocks, markLockReleased, refuseUnusableLockRow } from './locks.queries.js'

type LockInput = { item_id: number; quantity: number; lock_duration?: number }

/**
 * POST /v1/item/lock, checks in DESIGN §6 order. The item is held exclusively first, which also
 * waits out every purchase of it in flight; then the account row, under which the cap is counted.
 */
export async function createLock(
  db: Database,
  limits: { defaultCap: number; fulfillable: readonly string[] },
  accountId: number,
  input: LockInput,
) {
  const { defaultCap, fulfillable } = limits
  return inTransaction(db, async (trx) => {
    await stock.holdItem(trx, input.item_id)
    const item = await trx
      .selectFrom('items')
      .select(['id', 'active', 'unlimited_stock'])
      .where('id', '=', input.item_id)
      .executeTakeFirst()
    if (!item || !item.active) throw new AppError('ITEM_NOT_FOUND')
    if (item.unlimited_stock) throw new AppError('LOCK_NOT_REQUIRED')
    // Stock that no purchase could take must not be held either.
    await refuseUnsellable(trx, item.id, input.quantity, fulfillable)
    const account = await trx
      .selectFrom('accounts')
      .select('max_active_locks')
      .where('id', '=', accountId)
      .forNoKeyUpdate()
      .executeTakeFirstOrThrow()
    const { active } = await trx
      .selectFrom('stock_locks')
      .select((eb) => eb.fn.countAll<number>().as('active'))
      .where('account_id', '=', accountId)
      .where('status', '=', 'active')
      .where(sql<boolean>`expires_at > clock_timestamp()`)
      .executeTakeFirstOrThrow()
    if (active >= (account.max_active_locks ?? defaultCap)) throw new AppError('MAX_ACTIVE_LOCKS_REACHED')
    const available = await stock.forSale(trx, item.id)
    if (available! < input.quantity) throw new AppError('INSUFFICIENT_STOCK')
    return trx
      .insertInto('stock_locks')
      .values({
        token: `LCK-${crypto.randomBytes(16).toString('hex')}`,
        account_id: accountId,
        item_id: item.id,
        quantity: input.quantity,
        locked_at: sql`clock_timestamp()`,
        expires_at: sql`clock_timestamp() + make_interval(secs => ${input.lock_duration ?? 600})`,
      })
      .returning(['token as lock_token', 'item_id', 'quantity', 'locked_at', 'expires_at'])
      .executeTakeFirstOrThrow()
  })
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
  const result = await sql`
    UPDATE stock_locks SET status = 'expired', finished_at = expires_at
     WHERE id IN (SELECT id FROM stock_locks WHERE status = 'active' AND expires_at <= clock_timestamp()
                   ORDER BY id LIMIT ${batch} FOR UPDATE SKIP LOCKED)`.execute(db)
  return Number(result.numAffectedRows ?? 0)
}
