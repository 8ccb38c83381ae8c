import type { Database } from '../../db/database.js'
import type { PageWindow } from '../../db/keyset-paging.js'
import type { AlertKind } from '../../db/schema.js'
import { listAlertRows, type AlertRow } from './alerts.queries.js'
import { deliveriesOfAlerts } from './alerts-admin.queries.js'

// The operator's read of alerts (docs/design.md §11e): each kept, with where it was delivered.

export type AlertDeliveryView = {
  event: 'started' | 'cleared'
  channel: 'email' | 'telegram' | 'webhook'
  status: 'pending' | 'retrying' | 'delivered' | 'failed'
  failures: number
  delivered_at: Date | null
}
export type AlertView = AlertRow & { open: boolean; deliveries: AlertDeliveryView[] }

/** GET /alerts: a page, newest first; `open` only those not cleared, `kind` one kind. */
export async function listAlerts(db: Database, filter: { open?: boolean; kind?: AlertKind }, window: PageWindow) {
  const { data, meta } = await listAlertRows(db, filter, window)
  const deliveries = await deliveriesOfAlerts(
    db,
    data.map((a) => a.id),
  )
  const views: AlertView[] = data.map((a) => ({
    ...a,
    open: a.cleared_at === null,
    deliveries: deliveries.filter((d) => d.alert_id === a.id).map(({ alert_id: _, ...d }) => d),
  }))
  return { data: views, meta }
}
