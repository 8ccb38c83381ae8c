import type { Database } from '../../db/database.js'
import { findLowStockItems, findStockForSale } from './catalog.queries.js'

/** Units of an item for sale now: item_stock() less item_reserved() (stock.sql); null when unlimited. */
export async function forSale(db: Database, itemId: number): Promise<number | null> {
  return findStockForSale(db, itemId)
}

/** Active items with limited stock under `below` units for sale now, fewest first (at most 100). */
export async function lowStockItems(db: Database, below: number) {
  const rows = await findLowStockItems(db, below)
  return rows.map((r) => ({ ...r, available: Math.max(0, Number(r.available)) }))
}
