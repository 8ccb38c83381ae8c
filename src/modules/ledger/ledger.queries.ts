import { sql } from 'kysely'
import type { Database, Trx } from '../../db/database.js'
import { raisingAppErrors } from '../../db/functions/app-errors.js'
import { listPage, type PageWindow } from '../../db/keyset-paging.js'
import type { LedgerDirection, LedgerEntry, LedgerType } from '../../db/schema.js'
import type { MutationsQuery } from './ledger.schemas.js'

/** The account row's balance and entry count, read in batches (accounts' accountCountersReader). */
export type LedgerCountersReader = (accountId: number) => Promise<{ balance: number; ledger_count: number }>

/** Bots poll it: the account row, read together with the other polls of the same moment. */
export async function getBalance(counters: LedgerCountersReader, accountId: number): Promise<number> {
  return (await counters(accountId)).balance
}

/** How many entries the account's ledger holds: an unfiltered page read at the same count is the same page. */
export async function ledgerCount(counters: LedgerCountersReader, accountId: number): Promise<number> {
  return (await counters(accountId)).ledger_count
}

export async function listMutations(db: Database, accountId: number, q: MutationsQuery, w: PageWindow) {
  let query = db.selectFrom('ledger_entries').where('account_id', '=', accountId)
  if (q.direction) query = query.where('direction', '=', q.direction)
  // A purchase is always a debit: said outright, credits read the partial index without purchases.
  if (q.direction === 'credit') query = query.where('type', '<>', 'purchase')
  if (q.type) query = query.where('type', '=', q.type)
  const columns = ['id', 'invoice', 'direction', 'type', 'amount', 'balance_before', 'balance_after', 'description', 'created_at'] as const
  // Unfiltered, the account row keeps the total (post_ledger_entry counts).
  const counted = q.direction || q.type ? undefined : sql<number>`(SELECT ledger_count FROM accounts WHERE id = ${accountId})`
  return listPage(db, query, query.select(columns), w, counted)
}

/** The entries an order made: its debit and any refunds, oldest first (found through the account's index). */
export async function listOrderEntries(db: Database, accountId: number, orderId: number) {
  return db
    .selectFrom('ledger_entries')
    .select(['id', 'direction', 'type', 'amount', 'balance_before', 'balance_after', 'description', 'order_line_id', 'created_at'])
    .where('account_id', '=', accountId)
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute()
}

export type LedgerPosting = {
  accountId: number
  direction: LedgerDirection
  type: LedgerType
  amount: number
  description: string
  invoice?: string | null
  reference?: string | null
  orderId?: number | null
  orderLineId?: number | null
  topupId?: number | null
}

/** One call of post_ledger_entry (ledger.sql): the account row and its entry in one statement; undefined when a debit would go below zero. */
export async function insertLedgerEntry(trx: Trx, p: LedgerPosting): Promise<LedgerEntry | undefined> {
  const result = await raisingAppErrors(
    sql<LedgerEntry>`
    SELECT * FROM post_ledger_entry(${p.accountId}, ${p.direction}, ${p.type}, ${p.amount}::bigint, ${p.description},
      ${p.invoice ?? null}, ${p.reference ?? null}, ${p.orderId ?? null}::bigint, ${p.orderLineId ?? null}::bigint, ${p.topupId ?? null}::bigint)`.execute(
      trx,
    ),
  )
  return result.rows[0]
}
