import type { Database } from '../../db/database.js'
import type { DeliveryStatus } from '../../db/schema.js'
import { getAccount } from '../accounts/index.js'
import { deliveryIdsByStatus, FAILING, failingCounts } from './operator-deliveries.queries.js'
import { loadDeliveries } from './webhooks.queries.js'
import type { SettingsBody } from './webhooks.schemas.js'
import { updateSettings } from './webhooks.service.js'

/** The operator's edit of an account's webhook settings: the reseller's own rules (PUT /v1/webhook), for a known account. */
export async function updateAccountWebhook(db: Database, production: boolean, accountId: number, body: SettingsBody) {
  await getAccount(db, accountId)
  return updateSettings(db, production, accountId, body)
}

/** `failing`: failed or retrying, the deliveries an operator may need to look at. */
export type DeliveryFilter = DeliveryStatus | 'failing'

/** Deliveries of every account (or one), newest first, each with its account and attempts; by default the failing ones. */
export async function storeDeliveries(db: Database, q: { status?: DeliveryFilter; accountId?: number; page: number; perPage: number }) {
  const status = q.status ?? 'failing'
  const statuses = status === 'failing' ? FAILING : [status]
  const { rows, total } = await deliveryIdsByStatus(db, { statuses, accountId: q.accountId, page: q.page, perPage: q.perPage })
  const accounts = new Map(rows.map((r) => [r.id, { account_id: r.account_id, account_name: r.account_name }]))
  const deliveries = await loadDeliveries(
    db,
    rows.map((r) => r.id),
  )
  return { rows: deliveries.map((d) => ({ ...d, ...accounts.get(d.id)! })), total }
}

/** For the overview: failing deliveries (failed or retrying) over every account, and the accounts with the most. */
export async function failingWebhooks(db: Database) {
  return failingCounts(db, 50)
}
