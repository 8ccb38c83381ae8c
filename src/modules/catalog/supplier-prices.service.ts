import { sql } from 'kysely'
import type { Trx } from '../../db/database.js'

// The gate then the row, ascending, like every other writer of items (checkout/purchase.sql's lock order).
async function holdItems(trx: Trx, ids: number[]) {
  await sql`SELECT hold_item_exclusively(id) FROM items WHERE id = ANY(${ids}::bigint[]) ORDER BY id`.execute(trx)
  await sql`SELECT id FROM items WHERE id = ANY(${ids}::bigint[]) ORDER BY id FOR NO KEY UPDATE`.execute(trx)
}

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
  await sql`SELECT set_config('price_levels.refresh', 'after', true)`.execute(trx)
  const { rows } = await sql<{ id: number }>`
    WITH v AS (
      SELECT * FROM unnest(${ids}::bigint[], ${prices.map((p) => p.cost)}::numeric[], ${prices.map((p) => p.price)}::bigint[],
                           ${prices.map((p) => p.min_margin)}::bigint[])
        AS v(id, cost, price, min_margin)
    )
    UPDATE items i
       SET cost = v.cost,
           price = CASE WHEN i.price_locked THEN i.price ELSE v.price END,
           min_margin = v.min_margin
      FROM v
     WHERE i.id = v.id
       AND (i.cost IS DISTINCT FROM v.cost OR (NOT i.price_locked AND i.price <> v.price) OR i.min_margin IS DISTINCT FROM v.min_margin)
    RETURNING i.id`.execute(trx)
  const written = rows.map((r) => r.id)
  await sql`SELECT refresh_level_prices(NULL, ${written}::bigint[]), set_config('price_levels.refresh', '', true)`.execute(trx)
  return written
}

/**
 * Items whose supply changed outside the catalog's tables (their supplier product switched off or on,
 * gone or back; the store's floor margin) without a new price: their catalog status follows their
 * sources, so they take the catalog's change time and listings are told (touch_catalog_items(),
 * catalog-clock.sql, as the triggers on the catalog's own tables do).
 */
export async function markSupplyChanged(trx: Trx, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return
  await sql`SELECT touch_catalog_items(${[...ids]}::bigint[])`.execute(trx)
}
