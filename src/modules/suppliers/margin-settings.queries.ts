import { sql } from 'kysely'
import type { Trx } from '../../db/database.js'

/** Writes the floor margin of items no pricing rule covers; false when it was that already. */
export async function setMinMargin(trx: Trx, minMargin: number): Promise<boolean> {
  const { rows } = await sql<{ changed: boolean }>`
    UPDATE margin_settings SET min_margin = ${minMargin}, updated_at = now()
     WHERE min_margin <> ${minMargin} RETURNING true AS changed`.execute(trx)
  return rows.length > 0
}

/** The items with a source and no floor margin of their own: those the default floor covers. */
export async function itemsUnderDefaultFloor(trx: Trx): Promise<number[]> {
  const items = await trx
    .selectFrom('items')
    .select('id')
    .where('min_margin', 'is', null)
    .where((eb) => eb.exists(eb.selectFrom('item_sources as s').select('s.item_id').whereRef('s.item_id', '=', 'items.id')))
    .execute()
  return items.map((i) => i.id)
}
