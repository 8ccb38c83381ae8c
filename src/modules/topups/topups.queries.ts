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

/** By ref_id or invoice, only within the caller's account (GET /v1/trx/{ref}). */
export async function findTopupByRef(db: Database, accountId: number, ref: string): Promise<TopupRow | undefined> {
  return db
    .selectFrom('topups')
    .selectAll()
    .select(effectiveStatus.as('effective_status'))
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('ref_id', '=', ref), eb('invoice', '=', ref)]))
    .orderBy('id')
    .executeTakeFirst()
}

export async function findTopupByReference(db: Database, reference: string): Promise<TopupRow | undefined> {
  return db
    .selectFrom('topups')
    .selectAll()
    .select(effectiveStatus.as('effective_status'))
    .where('reference', '=', reference)
    .executeTakeFirst()
}

/** What a reseller is told of a top-up when it is created. */
export function createdTopupView(t: Topup) {
  return {
    payment_url: t.payment_url,
    amount: t.amount,
    expires_at: t.expires_at,
    reference: t.reference,
    invoice: t.invoice,
    ref_id: t.ref_id,
    channel: t.channel,
    fee: t.fee,
    total: t.total,
    status: 'pending' as const,
    created_at: t.created_at,
  }
}

/**
 * A top-up read back through GET /v1/trx/{ref} (DESIGN §7): a transaction whose payment_method is
 * the channel, with no items; `amount` is what the balance gains, `fees` what the payer adds.
 */
export function topupDetail(t: TopupRow) {
  return {
    id: t.id,
    ref_id: t.ref_id,
    invoice: t.invoice,
    payment_method: t.channel,
    status: t.effective_status,
    price: t.amount,
    fees: t.fee,
    amount: t.amount,
    created_at: t.created_at,
    updated_at: t.updated_at,
    items: [],
    h2h_results: [],
    smm_results: [],
    type: 'topup' as const,
    total: t.total,
    payment_url: t.payment_url,
    expires_at: t.expires_at,
    paid_at: t.paid_at,
  }
}
