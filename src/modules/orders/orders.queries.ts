import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import type { Order, OrderStatus } from '../../db/schema.js'
import { listPage, type PageWindow } from '../../db/keyset-paging.js'
import { type AccountCountersReader } from '../accounts/index.js'

const SUMMARY = ['id', 'invoice', 'ref_id', 'amount', 'status', 'created_at'] as const

export async function findOrder(db: Database, orderId: number): Promise<Order | undefined> {
  return db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst()
}

/** The version of an account's unfiltered order list: it moves with every new order and every status change. */
export async function orderListVersion(counters: AccountCountersReader, accountId: number): Promise<string> {
  const { orders_count, order_settles } = await counters(accountId)
  return `${orders_count}.${order_settles}`
}

/** `ref`: a ref_id or invoice (exact); `awaiting: 'manual'`: orders with a manual line still to send. */
export type OrderListFilter = { accountId?: number; status?: OrderStatus; ref?: string; awaiting?: 'manual' }

/** Purchases newest first: one account's for a reseller, or every account's for an operator. */
export async function listOrders(db: Database, q: OrderListFilter, w: PageWindow) {
  let query = db.selectFrom('orders')
  if (q.accountId !== undefined) query = query.where('account_id', '=', q.accountId)
  if (q.status) query = query.where('status', '=', q.status)
  if (q.ref) query = query.where((eb) => eb.or([eb('ref_id', '=', q.ref!), eb('invoice', '=', q.ref!)]))
  if (q.awaiting === 'manual')
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('order_lines as l')
          .select('l.id')
          .whereRef('l.order_id', '=', 'orders.id')
          .where('l.order_process', '=', 'manual')
          .where('l.status', '=', 'pending'),
      ),
    )
  // One account's, unfiltered: its row keeps the total (post_ledger_entry and purchase() count).
  const counted =
    q.accountId !== undefined && !q.status && !q.ref && !q.awaiting
      ? sql<number>`(SELECT orders_count FROM accounts WHERE id = ${q.accountId})`
      : undefined
  return listPage(db, query, query.select([...SUMMARY, 'account_id']), w, counted)
}
