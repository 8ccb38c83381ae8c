import type { Database } from '../../db/database.js'
import { lowStockItems } from '../catalog/index.js'
import { failingWebhooks } from '../webhooks/index.js'
import {
  balancesHeld,
  pendingManualLines,
  salesSince,
  topupsInReview,
  topupsPendingLive,
  upstreamInReview,
  upstreamPending,
} from './overview.queries.js'

/** Below this many units for sale (and not unlimited), an active item is low on stock. */
export const LOW_STOCK_BELOW = 10

/** The store at a glance: sales, money held for resellers, and what waits for an operator. */
export async function storeOverview(db: Database, timeZone: string) {
  const [today, month, held, manual, upstreamWaiting, upstreamReview, webhooksFailing, topupsPending, topupsReview, lowStock] =
    await Promise.all([
      salesSince(db, timeZone, 'day'),
      salesSince(db, timeZone, 'month'),
      balancesHeld(db),
      pendingManualLines(db),
      upstreamPending(db),
      upstreamInReview(db),
      failingWebhooks(db),
      topupsPendingLive(db),
      topupsInReview(db),
      lowStockItems(db, LOW_STOCK_BELOW),
    ])
  return {
    time_zone: timeZone,
    sales_today: today,
    sales_month: month,
    balances_held: held,
    queues: {
      manual_lines: manual,
      upstream_pending: upstreamWaiting,
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
