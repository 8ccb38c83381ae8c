import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import { lowStockItems } from '../catalog/index.js'
import { failingWebhooks } from '../webhooks/index.js'

/** Below this many units for sale (and not unlimited), an active item is low on stock. */
export const LOW_STOCK_BELOW = 10

type Sales = { count: number; amount: number }

// Orders not canceled, created since the start of this day / month on the operator's clock (LEADERBOARD_TZ).
async function salesSince(db: Database, timeZone: string, unit: 'day' | 'month'): Promise<Sales> {
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

/** The store at a glance: sales, money held for resellers, and what waits for an operator. */
export async function storeOverview(db: Database, timeZone: string) {
  const countAll = sql<number>`count(*)`.as('n')
  const [today, month, held, manual, upstreamPending, upstreamReview, webhooksFailing, topupsPending, topupsReview, lowStock] =
    await Promise.all([
      salesSince(db, timeZone, 'day'),
      salesSince(db, timeZone, 'month'),
      db
        .selectFrom('accounts')
        .select(sql<string>`coalesce(sum(balance), 0)::bigint`.as('n'))
        .executeTakeFirstOrThrow(),
      count(db.selectFrom('order_lines').select(countAll).where('order_process', '=', 'manual').where('status', '=', 'pending')),
      count(db.selectFrom('dispatches').select(countAll).where('status', 'in', ['queued', 'sending', 'pending'])),
      count(db.selectFrom('dispatches').select(countAll).where('status', '=', 'review')),
      failingWebhooks(db),
      count(
        db
          .selectFrom('topups')
          .select(countAll)
          .where('status', '=', 'pending')
          .where('expires_at', '>', sql<Date>`now()`),
      ),
      count(db.selectFrom('topups').select(countAll).where('status', '=', 'review')),
      lowStockItems(db, LOW_STOCK_BELOW),
    ])
  return {
    time_zone: timeZone,
    sales_today: today,
    sales_month: month,
    balances_held: Number(held.n),
    queues: {
      manual_lines: manual,
      upstream_pending: upstreamPending,
      upstream_review: upstreamReview,
      webhooks_failing: webhooksFailing.total,
      topups_pending: topupsPending,
      topups_review: topupsReview,
      low_stock: lowStock.length,
    },
    webhooks_failing: webhooksFailing.byAccount,
    low_stock: lowStock,
  }
}
