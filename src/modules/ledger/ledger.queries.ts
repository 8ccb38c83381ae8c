import type { Database, DatabaseHandle } from '../../db/database.js'
import type { MutationsQuery } from './ledger.schemas.js'

/** Bots poll it: a named prepared statement, no query building per request. */
export async function getBalance(database: DatabaseHandle, accountId: number): Promise<number> {
  const [row] = await database.prepared<{ balance: number }>('balance', 'SELECT balance FROM accounts WHERE id = $1', [accountId])
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
