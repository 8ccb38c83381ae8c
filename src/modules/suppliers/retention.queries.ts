import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

/**
 * Deletes up to `limit` change-log rows older than `before` (the products and syncs themselves stay);
 * answers how many. An open hold stays: it still waits for a decision or keeps a rejected price out.
 */
export async function pruneChanges(db: Database, before: Date, limit: number): Promise<number> {
  const { numAffectedRows } = await sql`
    DELETE FROM supplier_changes
     WHERE id IN (SELECT id FROM supplier_changes WHERE at < ${before} AND NOT hold_open LIMIT ${limit})`.execute(db)
  return Number(numAffectedRows ?? 0)
}
