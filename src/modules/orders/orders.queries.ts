import type { Database } from '../../db/database.js'
import type { OrderStatus } from '../../db/schema.js'
import { listPage, type PageWindow } from '../../http/paging.js'

const SUMMARY = ['id', 'invoice', 'ref_id', 'amount', 'status', 'created_at'] as const

export async function findOrderSummary(db: Database, accountId: number, refId: string) {
  return db.selectFrom('orders').select(SUMMARY).where('account_id', '=', accountId).where('ref_id', '=', refId).executeTakeFirst()
}

/** Purchases newest first: one account's for a reseller, or every account's for an operator. */
export async function listOrders(db: Database, q: { accountId?: number; status?: OrderStatus }, w: PageWindow) {
  let query = db.selectFrom('orders')
  if (q.accountId !== undefined) query = query.where('account_id', '=', q.accountId)
  if (q.status) query = query.where('status', '=', q.status)
  return listPage(db, query, query.select([...SUMMARY, 'account_id']), w)
}
