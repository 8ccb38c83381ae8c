import type { Database } from '../../db/database.js'
import { AppError } from '../../errors.js'
import type { Vault } from '../../vault.js'
import * as ledger from '../ledger/index.js'
import type { PageWindow } from '../../db/keyset-paging.js'
import { loadOrderDetail } from './order-detail.view.js'
import { findOrder, listOrders, type OrderListFilter } from './orders.queries.js'

/** Every account's purchases for an operator, newest first (by ref_id/invoice, or awaiting a manual send). */
export async function listOperatorOrders(db: Database, q: OrderListFilter, w: PageWindow) {
  return listOrders(db, q, w)
}

/** One order as an operator sees it: lines with ids, upstream results and requests, the cancel reason, its ledger entries. */
export async function getOperatorOrder(db: Database, vault: Vault, orderId: number) {
  const order = await findOrder(db, orderId)
  if (!order) throw new AppError('TRX_NOT_FOUND')
  const [detail, entries] = await Promise.all([loadOrderDetail(db, vault, order), ledger.listOrderEntries(db, order.account_id, order.id)])
  return {
    ...detail,
    requests: detail.requests ?? [],
    account_id: order.account_id,
    cancel_reason: order.cancel_reason,
    ledger_entries: entries,
  }
}
