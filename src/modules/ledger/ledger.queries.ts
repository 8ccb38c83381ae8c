import type { Database } from '../../db/database.js'
import type { MutationsQuery } from './ledger.schemas.js'

export async function getBalance(db: Database, accountId: number): Promise<number> {
  const row = await db.selectFrom('accounts').select('balance').where('id', '=', accountId).executeTakeFirstOrThrow()
  return row.balance
}

export async function listMutations(
  db: Database,
  accountId: number,
  q: Required<Pick<MutationsQuery, 'page' | 'per_page'>> & MutationsQuery,
) {
  let query = db.selectFrom('ledger_entries').where('account_id', '=', accountId)
  if (q.direction) query = query.where('direction', '=', q.direction)
  if (q.type) query = query.where('type', '=', q.type)
  const [rows, count] = await Promise.all([
    query
      .select(['id', 'invoice', 'direction', 'type', 'amount', 'balance_before', 'balance_after', 'description', 'created_at'])
      .orderBy('id', 'desc')
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: count.total }
}

/** The entries an order made: its debit and any refunds, oldest first (found through the account's index). */
export async function listOrderEntries(db: Database, accountId: number, orderId: number) {
  return db
    .selectFrom('ledger_entries')
    .select(['id', 'direction', 'type', 'amount', 'balance_before', 'balance_after', 'description', 'order_line_id', 'created_at'])
    .where('account_id', '=', accountId)
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute()
}
