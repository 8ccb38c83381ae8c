import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import type { DeliveryStatus } from '../../db/schema.js'

/** Deliveries that have not reached their receiver and are not waiting for a first try: given up, or between retries. */
export const FAILING: DeliveryStatus[] = ['failed', 'retrying']

/** Every account's deliveries in these statuses (optionally one account's), newest first: ids and their accounts. */
export async function deliveryIdsByStatus(
  db: Database,
  q: { statuses: DeliveryStatus[]; accountId?: number; page: number; perPage: number },
) {
  let query = db.selectFrom('webhook_deliveries as d').where('d.status', 'in', q.statuses)
  if (q.accountId !== undefined) query = query.where('d.account_id', '=', q.accountId)
  const [rows, count] = await Promise.all([
    query
      .innerJoin('accounts as a', 'a.id', 'd.account_id')
      .select(['d.id', 'd.account_id', 'a.name as account_name'])
      .orderBy('d.id', 'desc')
      .limit(q.perPage)
      .offset((q.page - 1) * q.perPage)
      .execute(),
    query.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.n) }
}

/** How many deliveries are failing in all, and the accounts with the most of them. */
export async function failingCounts(db: Database, top: number) {
  const [total, byAccount] = await Promise.all([
    db
      .selectFrom('webhook_deliveries')
      .where('status', 'in', FAILING)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('accounts as a', 'a.id', 'd.account_id')
      .where('d.status', 'in', FAILING)
      .groupBy(['a.id', 'a.name'])
      .select(['a.id as account_id', 'a.name', sql<number>`count(*)::int`.as('failing')])
      .orderBy('failing', 'desc')
      .orderBy('a.id')
      .limit(top)
      .execute(),
  ])
  return { total: Number(total.n), byAccount: byAccount.map((r) => ({ ...r, failing: Number(r.failing) })) }
}
