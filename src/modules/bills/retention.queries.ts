import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

/** Deletes up to `limit` inquiries that expired unpaid before `before` (a paid one stays with its order line); answers how many. */
export async function pruneUnpaidInquiries(db: Database, before: Date, limit: number): Promise<number> {
  const { numAffectedRows } = await sql`
    DELETE FROM bill_inquiries WHERE id IN (
      SELECT id FROM bill_inquiries WHERE order_line_id IS NULL AND expires_at < ${before} LIMIT ${limit})`.execute(db)
  return Number(numAffectedRows ?? 0)
}
