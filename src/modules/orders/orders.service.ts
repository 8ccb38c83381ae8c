import type { Database } from '../../db/database.js'
import type { OrderStatus } from '../../db/schema.js'
import { AppError } from '../../errors.js'
import type { PageWindow } from '../../db/keyset-paging.js'
import type { DetailByRef } from './order-detail.view.js'
import { listOrders } from './orders.queries.js'

/** GET /v1/trx/{ref}: the caller's order, top-up or sandbox order by ref_id or invoice. */
export async function getTransaction(detailByRef: DetailByRef, accountId: number, ref: string) {
  const detail = await detailByRef(accountId, ref)
  if (!detail) throw new AppError('TRX_NOT_FOUND')
  return detail
}

/** GET /v1/trx: the caller's purchases, newest first. */
export async function listPurchases(db: Database, accountId: number, status: OrderStatus | undefined, w: PageWindow) {
  return listOrders(db, { accountId, status }, w)
}

export { orderListVersion } from './orders.queries.js'
