import { sql } from 'kysely'
import type { Trx } from '../../db/database.js'

/** Which items to reprice: these ids, those with a source at a provider (or among its codes), or every sourced item. */
export type RepriceTarget = { itemIds: number[] } | { provider: string; codes?: string[] } | 'all'

/** An item, its price now, and the supplier product of its first serving source. */
export type ServingSource = {
  item_id: number
  price: number
  cost: string | null
  /** The floor margin written for it (its covering rule's), null: the store's. */
  min_margin: number | null
  provider: string
  category: string
  brand: string
  /** What one unit of the item's price costs there (source_unit_price(), catalog/sources.sql), as a decimal. */
  unit_cost: string
}

function targetOf(target: RepriceTarget) {
  if (target === 'all') return sql`true`
  if ('itemIds' in target) return sql`s.item_id = ANY(${target.itemIds}::bigint[])`
  const codes = target.codes ? sql`AND code = ANY(${target.codes}::text[])` : sql``
  return sql`s.item_id IN (SELECT item_id FROM item_sources WHERE provider = ${target.provider} ${codes})`
}

/**
 * Each targeted item's first serving source (docs/design.md §11b, §11c): the lowest priority listed one
 * (item_source_states, catalog/sources.sql), whatever its cut-off window or the floor, so a price
 * does not flip daily or chase itself; when none is listed, its lowest priority source.
 */
export async function firstServingSources(trx: Trx, target: RepriceTarget): Promise<ServingSource[]> {
  const { rows } = await sql<ServingSource>`
    SELECT DISTINCT ON (i.id)
           i.id AS item_id, i.price, i.cost::text AS cost, i.min_margin, st.provider, sp.category, sp.brand,
           st.price::text AS unit_cost
      FROM items i
     CROSS JOIN LATERAL item_source_states(i.id, now()) st
      JOIN supplier_products sp ON sp.provider = st.provider AND sp.code = st.code
     WHERE i.id IN (SELECT s.item_id FROM item_sources s WHERE ${targetOf(target)})
     ORDER BY i.id, st.listed DESC, st.priority`.execute(trx)
  return rows
}
