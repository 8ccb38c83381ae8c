import type { Database } from '../../db/database.js'
import type { OrderStatus } from '../../db/schema.js'

const SUMMARY = ['id', 'invoice', 'ref_id', 'amount', 'status', 'created_at'] as const

export async function findOrderSummary(db: Database, accountId: number, refId: string) {
  return db.selectFrom('orders').select(SUMMARY).where('account_id', '=', accountId).where('ref_id', '=', refId).executeTakeFirst()
}

/** Purchases newest first: one account's for a reseller, or every account's for an operator. */
export async function listOrders(db: Database, q: { accountId?: number; page: number; per_page: number; status?: OrderStatus }) {
  let query = db.selectFrom('orders')
  if (q.accountId !== undefined) query = query.where('account_id', '=', q.accountId)
  if (q.status) query = query.where('status', '=', q.status)
  const [rows, count] = await Promise.all([
    query
      .select([...SUMMARY, 'account_id'])
      .orderBy('id', 'desc')
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: count.n }
}
