import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

export type Sales = { count: number; amount: number }

// Orders not canceled, created since the start of this day / month on the operator's clock (LEADERBOARD_TZ).
export async function salesSince(db: Database, timeZone: string, unit: 'day' | 'month'): Promise<Sales> {
  const row = await db
    .selectFrom('orders')
    .select([sql<number>`count(*)::int`.as('count'), sql<number>`coalesce(sum(amount), 0)::bigint`.as('amount')])
    .where('status', 'in', ['paid', 'completed'])
    .where('created_at', '>=', sql<Date>`date_trunc(${unit}, now() AT TIME ZONE ${timeZone}) AT TIME ZONE ${timeZone}`)
    .executeTakeFirstOrThrow()
  return { count: Number(row.count), amount: Number(row.amount) }
}

async function count(query: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }): Promise<number> {
  return Number((await query.executeTakeFirstOrThrow()).n)
}

const countAll = () => sql<number>`count(*)`.as('n')

/** The money every account holds: the sum of the balances. */
export async function balancesHeld(db: Database): Promise<number> {
  const held = await db
    .selectFrom('accounts')
    .select(sql<string>`coalesce(sum(balance), 0)::bigint`.as('n'))
    .executeTakeFirstOrThrow()
  return Number(held.n)
}

/** Manual order lines waiting for an operator to deliver them. */
export function pendingManualLines(db: Database): Promise<number> {
  return count(db.selectFrom('order_lines').select(countAll()).where('order_process', '=', 'manual').where('status', '=', 'pending'))
}

/** Upstream requests queued, being sent or waiting for the provider. */
export function upstreamPending(db: Database): Promise<number> {
  return count(db.selectFrom('dispatches').select(countAll()).where('status', 'in', ['queued', 'sending', 'pending']))
}

/** Upstream requests waiting for an operator's review. */
export function upstreamInReview(db: Database): Promise<number> {
  return count(db.selectFrom('dispatches').select(countAll()).where('status', '=', 'review'))
}

/** Top-ups pending and not yet past their time. */
export function topupsPendingLive(db: Database): Promise<number> {
  return count(
    db
      .selectFrom('topups')
      .select(countAll())
      .where('status', '=', 'pending')
      .where('expires_at', '>', sql<Date>`now()`),
  )
}

/** Top-ups waiting for an operator's review. */
export function topupsInReview(db: Database): Promise<number> {
  return count(db.selectFrom('topups').select(countAll()).where('status', '=', 'review'))
}
