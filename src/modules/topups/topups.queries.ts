import { sql } from 'kysely'
import type { Database, Trx } from '../../db/database.js'
import type { Topup, TopupStatus } from '../../db/schema.js'

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

/** Who pays a top-up: the account's name and email. */
export function payerOf(db: Database, accountId: number) {
  return db.selectFrom('accounts').select(['name', 'email']).where('id', '=', accountId).executeTakeFirstOrThrow()
}

export type NewTopup = {
  account_id: number
  ref_id: string
  invoice: string
  channel: string
  gateway: Topup['gateway']
  reference: string
  amount: number
  fee: number
  total: number
  payment_url: string
  expires_at: Date
  unique_code?: number
  pay_bank?: string | null
  pay_account_number?: string | null
  pay_account_name?: string | null
}

export function insertTopup(trx: Trx, values: NewTopup): Promise<Topup> {
  return trx.insertInto('topups').values(values).returningAll().executeTakeFirstOrThrow()
}

/**
 * Marks the top-up paid if its gateway still may: the gateway's own PAID while pending, expired or
 * failed and not resolved by an operator (its paid total is the top-up's), the simulator's while
 * pending and unexpired. The row when it did.
 */
export function markTopupPaid(trx: Trx, reference: string, by: 'simulator' | 'tripay'): Promise<Topup | undefined> {
  let update = trx
    .updateTable('topups')
    .set({
      status: 'paid',
      paid_at: sql`now()`,
      updated_at: sql`now()`,
      ...(by === 'tripay' && { gateway_status: 'PAID', paid_total: sql`total` }),
    })
    .where('reference', '=', reference)
    .where('gateway', '=', by)
  update =
    by === 'tripay'
      ? update.where('status', 'in', ['pending', 'expired', 'failed']).where('resolved_at', 'is', null)
      : update.where('status', '=', 'pending').where(sql<boolean>`expires_at > now()`)
  return update.returningAll().executeTakeFirst()
}

export function topupByReference(trx: Trx, reference: string): Promise<Topup | undefined> {
  return trx.selectFrom('topups').selectAll().where('reference', '=', reference).executeTakeFirst()
}

/** Records a Tripay status on its top-up; `next` retires it only while pending. */
export function setGatewayStatus(
  db: Database,
  reference: string,
  status: string,
  next: 'expired' | 'failed' | null,
): Promise<Topup | undefined> {
  return db
    .updateTable('topups')
    .set({
      gateway_status: status,
      status: next ? sql`CASE WHEN status = 'pending' THEN ${next} ELSE status END` : undefined,
      updated_at: sql`now()`,
    })
    .where('reference', '=', reference)
    .where('gateway', '=', 'tripay')
    .returningAll()
    .executeTakeFirst()
}

/** Pending top-ups past expires_at turn expired, up to `batch` (rows another sweep holds are skipped); how many. */
export async function expirePendingTopups(db: Database, batch: number): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    UPDATE topups SET status = 'expired', updated_at = now()
     WHERE id IN (SELECT id FROM topups WHERE status = 'pending' AND expires_at <= now() ORDER BY expires_at LIMIT ${batch} FOR UPDATE SKIP LOCKED)
    RETURNING id`.execute(db)
  return rows.length
}

/**
 * An operator retires a pending top-up now (docs/design.md §7b): expired from this moment, and a bank
 * transfer's total stays reserved 7 days from it (a late transfer still finds it). The row when it did.
 */
export async function expireTopupNow(trx: Trx, reference: string) {
  const expired = await trx
    .updateTable('topups')
    .set({ status: 'expired', expires_at: sql<Date>`least(expires_at, now())`, updated_at: sql<Date>`now()` })
    .where('reference', '=', reference)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst()
  if (expired)
    await trx
      .updateTable('transfer_totals')
      .set({ reserved_until: sql<Date>`least(reserved_until, now() + interval '7 days')` })
      .where('topup_id', '=', expired.id)
      .execute()
  return expired
}

/** A page of top-ups, newest first, and how many match. */
export async function topupsPage(db: Database, q: { page: number; per_page: number; status?: TopupStatus; account_id?: number }) {
  let query = db.selectFrom('topups')
  if (q.status) query = query.where('status', '=', q.status)
  if (q.account_id !== undefined) query = query.where('account_id', '=', q.account_id)
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('id', 'desc')
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: count.n }
}

/** Puts the top-up in review for an operator, while its gateway may still settle it; its id when it did. */
export function holdTopupForReview(
  db: Database,
  topup: Pick<Topup, 'reference' | 'gateway'>,
  review: { paidTotal: number | null; reason: string; settleable: readonly TopupStatus[] },
) {
  return db
    .updateTable('topups')
    .set({
      status: 'review',
      gateway_status: 'PAID',
      paid_total: review.paidTotal,
      review_reason: review.reason,
      updated_at: sql`now()`,
    })
    .where('reference', '=', topup.reference)
    .where('gateway', '=', topup.gateway)
    .where('status', 'in', review.settleable)
    .where('resolved_at', 'is', null)
    .returning('id')
    .executeTakeFirst()
}

/** An operator's resolution of a top-up in review: paid with `credit` (`requested`: its amount) or failed. The row when it was in review. */
export function resolveTopupInReview(trx: Trx, reference: string, r: { credited: boolean; credit: number | 'requested'; reason: string }) {
  return trx
    .updateTable('topups')
    .set({
      status: r.credited ? 'paid' : 'failed',
      credited_amount: r.credit === 'requested' ? sql`amount` : r.credit,
      resolution_reason: r.reason,
      resolved_at: sql`now()`,
      ...(r.credited && { paid_at: sql`now()` }),
      updated_at: sql`now()`,
    })
    .where('reference', '=', reference)
    .where('status', '=', 'review')
    .returningAll()
    .executeTakeFirst()
}

export function topupStatusOf(trx: Trx, reference: string) {
  return trx.selectFrom('topups').select('status').where('reference', '=', reference).executeTakeFirst()
}
