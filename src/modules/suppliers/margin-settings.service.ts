import { inTransaction, type Database } from '../../db/database.js'
import { markSupplyChanged } from '../catalog/index.js'
import { itemsUnderDefaultFloor, setMinMargin } from './margin-settings.queries.js'

/**
 * Writes MIN_MARGIN, the floor margin of items no pricing rule covers (docs/design.md §11c), at start. When it
 * moved, those items take the catalog's change time: whether they are on may have moved with it.
 */
export async function recordMinMargin(db: Database, minMargin: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (!(await setMinMargin(trx, minMargin))) return
    await markSupplyChanged(trx, await itemsUnderDefaultFloor(trx))
  })
}
