import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import type { Topup } from '../../db/schema.js'

// A pending top-up past expires_at is expired whether or not the sweeper has marked it yet.
const effectiveStatus = sql<string>`CASE WHEN status = 'pending' AND expires_at <= now() THEN 'expired' ELSE status END`

type TopupRow = Topup & { effective_status: string }

export async function findTopupByReference(db: Database, reference: string): Promise<TopupRow | undefined> {
  return db
    .selectFrom('topups')
    .selectAll()
    .select(effectiveStatus.as('effective_status'))
    .where('reference', '=', reference)
    .executeTakeFirst()
}
