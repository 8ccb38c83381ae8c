import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import type { Topup } from '../../db/schema.js'

// A pending top-up past expires_at is expired whether or not the sweeper has marked it yet.
const effectiveStatus = sql<string>`CASE WHEN status = 'pending' AND expires_at <= now() THEN 'expired' ELSE status END`

/** The existing top-up a reused ref_id answers with (REF_ID_ALREADY_EXIST), shaped like an order's summary. */
export async function findTopupSummary(db: Database, accountId: number, refId: string) {
  return db
    .selectFrom('topups')
    .select(['id', 'invoice', 'ref_id', 'amount', effectiveStatus.as('status'), 'created_at'])
    .where('account_id', '=', accountId)
    .where('ref_id', '=', refId)
    .executeTakeFirst()
}

type TopupRow = Topup & { effective_status: string }

export async function findTopupByReference(db: Database, reference: string): Promise<TopupRow | undefined> {
  return db
    .selectFrom('topups')
    .selectAll()
    .select(effectiveStatus.as('effective_status'))
    .where('reference', '=', reference)
    .executeTakeFirst()
}
