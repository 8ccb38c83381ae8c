import { sql } from 'kysely'
import type { Trx } from '../../db/database.js'

/** Which items to reprice: these ids, those with a source at a provider (or among its codes), or every sourced item. */
export type RepriceTarget = { itemIds: number[] } | { provider: string; codes?: string[] } | 'all'

/** An item, its price now, and the supplier product of its first serving source. */
export type ServingSource = {
  item_id: number
  price: number
  cost: string | null
  provider: string
  kind: string
  category: string
  brand: string
  list_price: string
}

function targetOf(target: RepriceTarget) {
  if (target === 'all') return sql`true`
  if ('itemIds' in target) return sql`s.item_id = ANY(${target.itemIds}::bigint[])`
  const codes = target.codes ? sql`AND code = ANY(${target.codes}::text[])` : sql``
  return sql`s.item_id IN (SELECT item_id FROM item_sources WHERE provider = ${target.provider} ${codes})`
}

/**
 * Each targeted item's first serving source (DESIGN §11b): the lowest priority whose supplier product
 * is on, still listed and at an active provider; when none can serve, its lowest priority source.
 */
export async function firstServingSources(trx: Trx, target: RepriceTarget): Promise<ServingSource[]> {
  const { rows } = await sql<ServingSource>`
    SELECT DISTINCT ON (s.item_id)
           s.item_id, i.price, i.cost::text AS cost, s.provider, pr.kind, sp.category, sp.brand, sp.price::text AS list_price
      FROM item_sources s
      JOIN items i ON i.id = s.item_id
      JOIN providers pr ON pr.code = s.provider
      JOIN supplier_products sp ON sp.provider = s.provider AND sp.code = s.code
     WHERE ${targetOf(target)}
     ORDER BY s.item_id, (sp.active AND sp.gone_at IS NULL AND pr.active) DESC, s.priority`.execute(trx)
  return rows
}
