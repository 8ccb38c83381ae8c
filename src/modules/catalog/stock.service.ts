import type { Database, Trx } from '../../db/database.js'
import { claimResendLicenses, findLowStockItems, returnItemStock } from './catalog.queries.js'

/**
 * Limited stock an order line took and did not deliver goes back to its item: with purchase() and
 * the operator's item changes, the only writer of items.stock (return_item_stock() in stock.sql).
 */
export async function returnStock(trx: Trx, itemId: number, quantity: number): Promise<void> {
  if (quantity > 0) await returnItemStock(trx, itemId, quantity)
}

/**
 * A complaint's resend of an auto line (resend_line_licenses() in stock.sql): its licenses turn void and
 * `count` free ones are sold to it (0: a typed replacement); INSUFFICIENT_STOCK when too few are free.
 */
export async function resendLineLicenses(trx: Trx, itemId: number, lineId: number, count: number): Promise<number> {
  return claimResendLicenses(trx, itemId, lineId, count)
}

/** Active items with limited stock under `below` units for sale now, fewest first (at most 100). */
export async function lowStockItems(db: Database, below: number) {
  const rows = await findLowStockItems(db, below)
  return rows.map((r) => ({ ...r, available: Math.max(0, Number(r.available)) }))
}
