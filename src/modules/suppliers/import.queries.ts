import { sql } from 'kysely'
import type { Trx } from '../../db/database.js'
import type { OrderProcess, ProviderKind } from '../../db/schema.js'
import { chunks } from './chunks.js'

export type ImportSelection = { categories?: string[]; brands?: string[]; types?: string[]; codes?: string[] }

export type ImportableProduct = {
  code: string
  name: string
  category: string
  brand: string
  type: string
  list_price: string
  /** What one unit of an item's price costs at it: source_unit_price() (catalog/sources.sql) of the listed price. */
  unit_cost: string
  min_quantity: number | null
  max_quantity: number | null
  postpaid: boolean
  /** The item already bought from it (through item_sources, or mapped by hand as provider + provider_code). */
  linked_item: number | null
  /** A listed price waits for the operator's decision (docs/design.md §11c): not imported until it is decided. */
  held: boolean
}

const anyOf = (column: string, values: string[] | undefined) =>
  values?.length ? sql`AND lower(${sql.ref(`sp.${column}`)}) = ANY(${values.map((v) => v.toLowerCase())}::text[])` : sql``

/** The provider's listed products matching every selector given (names in any case, codes exactly), with their item if linked. */
export async function selectedProducts(trx: Trx, provider: string, sel: ImportSelection): Promise<ImportableProduct[]> {
  const codes = sel.codes?.length ? sql`AND sp.code = ANY(${sel.codes}::text[])` : sql``
  const { rows } = await sql<ImportableProduct>`
    SELECT sp.code, sp.name, sp.category, sp.brand, sp.type, sp.price::text AS list_price,
           source_unit_price(sp.price, pr.kind)::text AS unit_cost, sp.min_quantity, sp.max_quantity, sp.postpaid,
           coalesce(
             (SELECT min(s.item_id) FROM item_sources s WHERE s.provider = sp.provider AND s.code = sp.code),
             (SELECT min(i.id) FROM items i WHERE i.provider = sp.provider AND i.provider_code = sp.code)
           ) AS linked_item,
           EXISTS (SELECT 1 FROM supplier_changes c
                    WHERE c.provider = sp.provider AND c.code = sp.code AND c.hold_open AND c.decision IS NULL) AS held
      FROM supplier_products sp
      JOIN providers pr ON pr.code = sp.provider
     WHERE sp.provider = ${provider} AND sp.gone_at IS NULL
       ${anyOf('category', sel.categories)} ${anyOf('brand', sel.brands)} ${anyOf('type', sel.types)} ${codes}
     ORDER BY sp.category, sp.brand, sp.price, sp.code`.execute(trx)
  return rows
}

/**
 * Imports of one provider queue behind each other: two would both see a product unlinked. Answers its
 * kind and the order process its items take (process_of_provider_kind(), catalog/sources.sql).
 */
export async function holdProviderForImport(
  trx: Trx,
  provider: string,
): Promise<{ kind: ProviderKind; order_process: OrderProcess } | undefined> {
  return trx
    .selectFrom('providers')
    .select(['kind', sql<OrderProcess>`process_of_provider_kind(kind)`.as('order_process')])
    .where('code', '=', provider)
    .forNoKeyUpdate()
    .executeTakeFirst()
}

/** The SKUs items already use among these bases and their numbered forms (`BASE-2`, `BASE-3`…). */
export async function usedSkus(trx: Trx, bases: string[]): Promise<Set<string>> {
  if (bases.length === 0) return new Set()
  const { rows } = await sql<{ sku: string }>`
    SELECT i.sku FROM items i
     WHERE i.sku = ANY(${bases}::text[])
        OR (i.sku ~ '-[0-9]+$' AND regexp_replace(i.sku, '-[0-9]+$', '') = ANY(${bases}::text[]))`.execute(trx)
  return new Set(rows.map((r) => r.sku))
}

export async function linkSources(trx: Trx, provider: string, links: { itemId: number; code: string }[]): Promise<void> {
  for (const rows of chunks(links))
    await trx
      .insertInto('item_sources')
      .values(rows.map((l) => ({ item_id: l.itemId, provider, code: l.code, priority: 1 })))
      .execute()
}
