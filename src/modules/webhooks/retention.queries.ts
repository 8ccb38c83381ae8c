import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

/** Deletes up to `limit` finished deliveries (delivered or failed for good) created before `before`; answers how many. */
export async function pruneDeliveries(db: Database, before: Date, limit: number): Promise<number> {
  const { numAffectedRows } = await sql`
    DELETE FROM webhook_deliveries WHERE id IN (
      SELECT id FROM webhook_deliveries WHERE created_at < ${before} AND status IN ('delivered', 'failed') LIMIT ${limit})`.execute(db)
  return Number(numAffectedRows ?? 0)
}
