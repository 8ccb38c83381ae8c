import { sql } from 'kysely'
import type { Database, Trx } from '../../db/database.js'

export type SourceRow = {
  provider: string
  kind: 'digiflazz' | 'smm_panel'
  code: string
  priority: number
  name: string | null
  price: number | null
  active: boolean | null
  gone_at: Date | null
  cut_off_start: string | null
  cut_off_end: string | null
  serving_now: boolean
}

/** An item's sources by priority, each with its supplier product (if listed) and whether it serves now. */
export async function listItemSources(db: Database | Trx, itemId: number): Promise<SourceRow[]> {
  const { rows } = await sql<SourceRow>`
    SELECT s.provider, pr.kind, s.code, s.priority, sp.name, sp.price, sp.active, sp.gone_at, sp.cut_off_start, sp.cut_off_end,
           EXISTS (SELECT 1 FROM serving_sources(s.item_id, now()) v WHERE v.provider = s.provider AND v.code = s.code) AS serving_now
      FROM item_sources s
      JOIN providers pr ON pr.code = s.provider
      LEFT JOIN supplier_products sp ON sp.provider = s.provider AND sp.code = s.code
     WHERE s.item_id = ${itemId}
     ORDER BY s.priority`.execute(db)
  return rows
}

export async function itemExists(db: Database, itemId: number): Promise<boolean> {
  return (await db.selectFrom('items').select('id').where('id', '=', itemId).executeTakeFirst()) !== undefined
}

/** The kinds of the named providers, by code (unknown codes are absent). */
export async function providerKinds(trx: Trx, codes: string[]): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map()
  const rows = await trx.selectFrom('providers').select(['code', 'kind']).where('code', 'in', codes).execute()
  return new Map(rows.map((r) => [r.code, r.kind]))
}

/** Replaces an item's sources with these (the caller holds the item's row). */
export async function replaceItemSources(trx: Trx, itemId: number, sources: { provider: string; code: string; priority: number }[]) {
  await trx.deleteFrom('item_sources').where('item_id', '=', itemId).execute()
  if (sources.length === 0) return
  await trx
    .insertInto('item_sources')
    .values(sources.map((s) => ({ item_id: itemId, provider: s.provider, code: s.code, priority: s.priority })))
    .execute()
}
