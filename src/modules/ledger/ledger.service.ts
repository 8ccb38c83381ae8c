import { sql } from 'kysely'
import type { Database, Trx } from '../../db/database.js'
import { raisingAppErrors } from '../../db/functions/app-errors.js'
import type { LedgerDirection, LedgerEntry, LedgerType } from '../../db/schema.js'
import { AppError } from '../../errors.js'
import { findLedgerAudit } from './ledger-audit.queries.js'
import type { LedgerAudit } from './ledger.schemas.js'

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

/**
 * An account's books checked as an operator would by hand (docs/design.md §5: the balance is the sum of the
 * ledger, always): each check with what it expected and found. An unknown account is a 404.
 */
export async function auditLedger(db: Database, accountId: number, chunk?: number): Promise<LedgerAudit> {
  // One snapshot over every range read: the books as of one instant, however long the account's history.
  const r = await db.transaction().execute(async (trx) => {
    await sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`.execute(trx)
    return findLedgerAudit(trx, accountId, chunk)
  })
  if (!r) throw new AppError('ACCOUNT_NOT_FOUND')
  const check = (name: LedgerAudit['checks'][number]['check'], expected: number, actual: number, description: string) => ({
    check: name,
    ok: expected === actual,
    expected,
    actual,
    description,
  })
  const checks = [
    check('balance_equals_ledger', r.ledger_balance, r.balance, 'the balance (actual) against credits less debits (expected)'),
    check('ledger_chain', 0, r.break_count, 'entries that do not start from the balance the entry before left'),
    check('orders_debited_once', r.orders_charged, r.purchase_debits, 'purchase debits against orders that cost something'),
    check('orders_debited_in_full', r.orders_amount, r.purchases_debited, 'purchase debits (actual) against the orders’ amounts'),
    check(
      'refunds_equal_lines_refunded',
      r.lines_refunded,
      r.refunds_credited,
      'refund credits against what order lines record as refunded',
    ),
    check('topups_credited_once', r.topups_paid, r.topups_credited, 'top-up credits against paid top-ups'),
    check('order_counter', r.orders, r.orders_count, 'the order list’s kept total against the orders counted'),
    check('ledger_counter', r.entries, r.ledger_count, 'the ledger list’s kept total against the entries counted'),
  ]
  return {
    account_id: accountId,
    consistent: checks.every((c) => c.ok),
    balance: r.balance,
    ledger_balance: r.ledger_balance,
    entries: r.entries,
    checks,
    breaks: r.breaks,
  }
}
