import { sql } from 'kysely'
import type { Database, Trx } from '../../db/database.js'
import type { BankMutation, MatchedBy, MutationStatus } from '../../db/schema.js'

export type NewMutation = {
  mutation_id: string
  source: 'moota' | 'statement'
  bank_id: string | null
  account_number: string
  amount: number
  type: 'CR' | 'DB'
  description: string
  date: string | null
  raw: unknown
}

/** Stores a mutation once by its mutation_id; its id, or nothing when it was stored before. */
export async function claimMutation(trx: Trx, m: NewMutation): Promise<number | undefined> {
  const row = await trx
    .insertInto('bank_mutations')
    .values({ ...m, raw: JSON.stringify(m.raw ?? null) })
    .onConflict((oc) => oc.column('mutation_id').doNothing())
    .returning('id')
    .executeTakeFirst()
  return row?.id
}

// A bank top-up a transfer may still credit: pending, or expired within the reservation's 7 days (the money came).
const WITHIN_WINDOW = sql<boolean>`expires_at > now() - interval '7 days'`

/** Bank top-ups to the account whose total is the amount, still creditable: two at most (more than one is no match). */
export function creditableTopups(trx: Trx, accountNumber: string, amount: number) {
  return trx
    .selectFrom('topups')
    .select(['id', 'fee'])
    .where('gateway', '=', 'bank_transfer')
    .where('pay_account_number', '=', accountNumber)
    .where('total', '=', amount)
    .where('status', 'in', ['pending', 'expired'])
    .where('resolved_at', 'is', null)
    .where(WITHIN_WINDOW)
    .limit(2)
    .execute()
}

/** A bank top-up to the account with that total that a mutation already credited, within the window: the transfer seen again. */
export function creditedTopupWithTotal(trx: Trx, accountNumber: string, amount: number) {
  return trx
    .selectFrom('topups')
    .select('id')
    .where('gateway', '=', 'bank_transfer')
    .where('pay_account_number', '=', accountNumber)
    .where('total', '=', amount)
    .where('status', '=', 'paid')
    .where(WITHIN_WINDOW)
    .limit(1)
    .executeTakeFirst()
}

/**
 * The top-up's half of a match: paid with `credit`, only while it is a bank top-up to that account not
 * yet credited (the matcher also asks for its total and window). The row when it changed.
 */
export function markTransferPaid(
  trx: Trx,
  m: { topupId: number; accountNumber: string; paidTotal: number; credit: number; exactTotal: boolean },
) {
  let update = trx
    .updateTable('topups')
    .set({
      status: 'paid',
      paid_at: sql`now()`,
      paid_total: m.paidTotal,
      credited_amount: m.credit,
      gateway_status: 'MATCHED',
      updated_at: sql`now()`,
    })
    .where('id', '=', m.topupId)
    .where('gateway', '=', 'bank_transfer')
    .where('pay_account_number', '=', m.accountNumber)
    .where('status', 'in', ['pending', 'expired', 'failed'])
    .where('resolved_at', 'is', null)
  if (m.exactTotal) update = update.where('total', '=', m.paidTotal).where('status', '!=', 'failed').where(WITHIN_WINDOW)
  return update.returningAll().executeTakeFirst()
}

/** The mutation's half of a match: matched to the top-up, only a CR from one of `from`. The row when it changed. */
export function markMutationMatched(
  trx: Trx,
  m: { id: number; topupId: number; by: MatchedBy; credit: number; from: readonly MutationStatus[]; note?: string },
) {
  return trx
    .updateTable('bank_mutations')
    .set({
      status: 'matched',
      topup_id: m.topupId,
      matched_by: m.by,
      matched_at: sql`now()`,
      credited_amount: m.credit,
      ...(m.note !== undefined && { note: m.note }),
      updated_at: sql`now()`,
    })
    .where('id', '=', m.id)
    .where('type', '=', 'CR')
    .where('status', 'in', m.from)
    .returningAll()
    .executeTakeFirst()
}

export function markMutationDuplicate(trx: Trx, id: number, topupId: number) {
  return trx
    .updateTable('bank_mutations')
    .set({ status: 'duplicate', topup_id: topupId, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('status', '=', 'unmatched')
    .execute()
}

/** An operator sets an unmatched (or duplicate) mutation aside; the row when it was. */
export function markMutationIgnored(db: Database, id: number, note: string | undefined) {
  return db
    .updateTable('bank_mutations')
    .set({ status: 'ignored', note: note ?? null, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('status', 'in', ['unmatched', 'duplicate'])
    .returningAll()
    .executeTakeFirst()
}

export function mutationById(db: Database, id: number): Promise<BankMutation | undefined> {
  return db.selectFrom('bank_mutations').selectAll().where('id', '=', id).executeTakeFirst()
}

export function bankTopupByReference(trx: Trx, reference: string) {
  return trx.selectFrom('topups').selectAll().where('reference', '=', reference).executeTakeFirst()
}

export type MutationFilter = { page: number; per_page: number; status?: MutationStatus; account_number?: string; type?: 'CR' | 'DB' }

/** A page of mutations: unmatched first, then newest first; and how many match. */
export async function mutationsPage(db: Database, q: MutationFilter) {
  let query = db.selectFrom('bank_mutations')
  if (q.status) query = query.where('bank_mutations.status', '=', q.status)
  if (q.account_number) query = query.where('bank_mutations.account_number', '=', q.account_number)
  if (q.type) query = query.where('bank_mutations.type', '=', q.type)
  const [rows, count] = await Promise.all([
    query
      .leftJoin('topups', 'topups.id', 'bank_mutations.topup_id')
      .selectAll('bank_mutations')
      .select(['topups.reference as topup_reference', 'topups.account_id as topup_account_id'])
      .orderBy(sql`bank_mutations.status = 'unmatched'`, 'desc')
      .orderBy('bank_mutations.id', 'desc')
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.n) }
}
