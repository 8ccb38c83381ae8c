import { sql } from 'kysely'
import { inTransaction, type Database } from '../../db/database.js'
import { markSupplyChanged } from '../catalog/index.js'

/**
 * Writes MIN_MARGIN, the floor margin of items no pricing rule covers (docs/design.md §11c), at start. When it
 * moved, those items take the catalog's change time: whether they are on may have moved with it.
 */
export async function recordMinMargin(db: Database, minMargin: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const { rows } = await sql<{ changed: boolean }>`
      UPDATE margin_settings SET min_margin = ${minMargin}, updated_at = now()
       WHERE min_margin <> ${minMargin} RETURNING true AS changed`.execute(trx)
    if (rows.length === 0) return
    const items = await trx
      .selectFrom('items')
      .select('id')
      .where('min_margin', 'is', null)
      .where((eb) => eb.exists(eb.selectFrom('item_sources as s').select('s.item_id').whereRef('s.item_id', '=', 'items.id')))
      .execute()
    await markSupplyChanged(
      trx,
      items.map((i) => i.id),
    )
  })
}
