import { inTransaction, type Database } from '../../db/database.js'
import { setMinMargin } from './margin-settings.queries.js'

/**
 * Writes MIN_MARGIN, the floor margin of items no pricing rule covers (docs/design.md §11c), at start. When it
 * moved, margin_settings' trigger (catalog-clock.sql) stamps those items: whether they are on may have moved with it.
 */
export async function recordMinMargin(db: Database, minMargin: number): Promise<void> {
  await inTransaction(db, (trx) => setMinMargin(trx, minMargin))
}
