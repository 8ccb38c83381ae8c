import { sql } from 'kysely'
import type { Database, Trx } from '../../db/database.js'

/** The purchase that holds a ref_id in an account, shaped as REF_ID_ALREADY_EXIST shows it. */
export async function findOrderSummary(db: Database, accountId: number, refId: string) {
  return db
    .selectFrom('orders')
    .select(['id', 'invoice', 'ref_id', 'amount', 'status', 'created_at'])
    .where('account_id', '=', accountId)
    .where('ref_id', '=', refId)
    .executeTakeFirst()
}

// A pending top-up past expires_at is expired whether or not the sweeper has marked it yet.
const expiredWhenPast = sql<string>`CASE WHEN status = 'pending' AND expires_at <= now() THEN 'expired' ELSE status END`

/** The top-up that holds a ref_id, shaped like an order's summary; a pending one past expires_at shows `expired`. */
export async function findTopupSummary(db: Database, accountId: number, refId: string) {
  return db
    .selectFrom('topups')
    .select(['id', 'invoice', 'ref_id', 'amount', expiredWhenPast.as('status'), 'created_at'])
    .where('account_id', '=', accountId)
    .where('ref_id', '=', refId)
    .executeTakeFirst()
}

/** Whether a purchase or a top-up already holds the ref_id (read without its lock: claimTopupRefId decides). */
export async function isRefIdHeld(db: Database, accountId: number, refId: string): Promise<boolean> {
  const registered = await db
    .selectFrom('ref_ids')
    .select('kind')
    .where('account_id', '=', accountId)
    .where('ref_id', '=', refId)
    .executeTakeFirst()
  if (registered) return true
  const order = await db
    .selectFrom('orders')
    .select('id')
    .where('account_id', '=', accountId)
    .where('ref_id', '=', refId)
    .executeTakeFirst()
  return order !== undefined
}

/**
 * Claims a ref_id for a top-up under the ref_id's advisory lock (the one purchase() takes): false when
 * a purchase or another top-up holds it. Purchases keep no registry row: under the lock, an order
 * with it is seen once committed.
 */
export async function claimTopupRefId(trx: Trx, accountId: number, refId: string): Promise<boolean> {
  await sql`SELECT lock_ref_id(${accountId}, ${refId})`.execute(trx)
  if (await trx.selectFrom('orders').select('id').where('account_id', '=', accountId).where('ref_id', '=', refId).executeTakeFirst()) {
    return false
  }
  const claimed = await trx
    .insertInto('ref_ids')
    .values({ account_id: accountId, ref_id: refId, kind: 'topup' })
    .onConflict((oc) => oc.columns(['account_id', 'ref_id']).doNothing())
    .returning('ref_id')
    .executeTakeFirst()
  return claimed !== undefined
}
