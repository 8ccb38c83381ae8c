import type { Database } from '../../db/database.js'

/** The deliveries of these alerts, oldest first: what the list shows of where each went. */
export async function deliveriesOfAlerts(db: Database, alertIds: number[]) {
  if (alertIds.length === 0) return []
  return db
    .selectFrom('alert_deliveries')
    .select(['alert_id', 'event', 'channel', 'status', 'failures', 'delivered_at'])
    .where('alert_id', 'in', alertIds)
    .orderBy('id')
    .execute()
}
