import { sql } from 'kysely'
import type { Trx } from '../../db/database.js'

// The statements of the suppliers' price writes (supplier-prices.service.ts), in the caller's transaction.

/** Each item's gate then its row, ascending, like every other writer of items (checkout/purchase.sql's lock order). */
export async function holdItems(trx: Trx, ids: number[]): Promise<void> {
  await sql`SELECT hold_item_exclusively(id) FROM items WHERE id = ANY(${ids}::bigint[]) ORDER BY id`.execute(trx)
  await sql`SELECT id FROM items WHERE id = ANY(${ids}::bigint[]) ORDER BY id FOR NO KEY UPDATE`.execute(trx)
}

/** Items' triggers leave level prices (docs/design.md §5d) to refreshLevelPricesAfter, until the transaction ends. */
export async function deferLevelPrices(trx: Trx): Promise<void> {
  await sql`SELECT set_config('price_levels.refresh', 'after', true)`.execute(trx)
}

/**
 * Each item's cost, price (not a locked one) and floor margin, on the rows where one of them differs.
 * Answers the ids written.
 */
export async function updateSupplierPrices(
  trx: Trx,
  prices: readonly { id: number; cost: string; price: number; min_margin: number | null }[],
): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    WITH v AS (
      SELECT * FROM unnest(${prices.map((p) => p.id)}::bigint[], ${prices.map((p) => p.cost)}::numeric[], ${prices.map((p) => p.price)}::bigint[],
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
  return rows.map((r) => r.id)
}

/** The level prices of these items in one pass, and the triggers' own refresh back (deferLevelPrices). */
export async function refreshLevelPricesAfter(trx: Trx, itemIds: number[]): Promise<void> {
  await sql`SELECT refresh_level_prices(NULL, ${itemIds}::bigint[]), set_config('price_levels.refresh', '', true)`.execute(trx)
}
