import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

/** Deletes up to `limit` change-log rows older than `before` (the products and syncs themselves stay); answers how many. */
export async function pruneChanges(db: Database, before: Date, limit: number): Promise<number> {
  const { numAffectedRows } = await sql`
    DELETE FROM supplier_changes WHERE id IN (SELECT id FROM supplier_changes WHERE at < ${before} LIMIT ${limit})`.execute(db)
  return Number(numAffectedRows ?? 0)
}
