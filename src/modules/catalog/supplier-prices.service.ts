import type { Trx } from '../../db/database.js'
import { deferLevelPrices, holdItems, refreshLevelPricesAfter, updateSupplierPrices } from './supplier-prices.queries.js'

/**
 * An item's cost at its first serving source (a decimal string), the price its pricing rule gives, and
 * that rule's min_margin, which the floor keeps (null: no rule covers it, the store's MIN_MARGIN).
 */
export type SupplierPrice = { id: number; cost: string; price: number; min_margin: number | null }

/**
 * Writes the cost and price the suppliers module computed (docs/design.md §11b), in the caller's transaction:
 * only rows whose cost, price or floor margin differ, and never the price of an item the operator locked
 * (its cost and floor margin still move: the floor alone protects it). Changed rows get the catalog's change time
 * (items' trigger, catalog-clock.sql), so resellers' delta sync sees them, and cached listings are told. Answers
 * the ids of the items written.
 */
export async function setSupplierPrices(trx: Trx, prices: readonly SupplierPrice[]): Promise<number[]> {
  if (prices.length === 0) return []
  const ids = prices.map((p) => p.id)
  await holdItems(trx, ids)
  // Level prices (docs/design.md §5d) follow in one pass after the statement, not one per row.
  await deferLevelPrices(trx)
  const written = await updateSupplierPrices(trx, prices)
  await refreshLevelPricesAfter(trx, written)
  return written
}
