import { sql } from 'kysely'
import type { Trx } from '../../db/database.js'
import { raisingAppErrors } from '../../db/functions/app-errors.js'
import type { LedgerDirection, LedgerEntry, LedgerType } from '../../db/schema.js'
import { AppError } from '../../errors.js'

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

/**
 * The only way a balance changes: the account row and its ledger entry move in one statement
 * (post_ledger_entry in ledger.sql, whose only caller this is), inside the caller's transaction.
 * Undefined when a debit would go below zero.
 */
export async function postLedgerEntry(trx: Trx, p: LedgerPosting): Promise<LedgerEntry | undefined> {
  const result = await raisingAppErrors(
    sql<LedgerEntry>`
    SELECT * FROM post_ledger_entry(${p.accountId}, ${p.direction}, ${p.type}, ${p.amount}::bigint, ${p.description},
      ${p.invoice ?? null}, ${p.reference ?? null}, ${p.orderId ?? null}::bigint, ${p.orderLineId ?? null}::bigint, ${p.topupId ?? null}::bigint)`.execute(
      trx,
    ),
  )
  return result.rows[0]
}

export async function creditBalance(trx: Trx, p: Omit<LedgerPosting, 'direction'>): Promise<LedgerEntry> {
  const entry = await postLedgerEntry(trx, { ...p, direction: 'credit' })
  if (!entry) throw new AppError('ACCOUNT_NOT_FOUND')
  return entry
}

export { getBalance, ledgerCount, listMutations, listOrderEntries } from './ledger.queries.js'
