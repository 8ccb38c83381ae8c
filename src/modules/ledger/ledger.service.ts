import type { Database, Trx } from '../../db/database.js'
import type { LedgerEntry } from '../../db/schema.js'
import { AppError } from '../../errors.js'
import { findLedgerAudit, useReadOnlySnapshot, type AuditProgress } from './ledger-audit.queries.js'
import { insertLedgerEntry, type LedgerPosting } from './ledger.queries.js'
import type { LedgerAudit } from './ledger.schemas.js'

export type { LedgerPosting } from './ledger.queries.js'

/**
 * The only way a balance changes: the account row and its ledger entry move in one statement
 * (post_ledger_entry in ledger.sql, reached only through here), inside the caller's transaction.
 * Undefined when a debit would go below zero.
 */
export async function postLedgerEntry(trx: Trx, p: LedgerPosting): Promise<LedgerEntry | undefined> {
  return insertLedgerEntry(trx, p)
}

export async function creditBalance(trx: Trx, p: Omit<LedgerPosting, 'direction'>): Promise<LedgerEntry> {
  const entry = await postLedgerEntry(trx, { ...p, direction: 'credit' })
  if (!entry) throw new AppError('ACCOUNT_NOT_FOUND')
  return entry
}

export { getBalance, ledgerCount, listMutations, listOrderEntries } from './ledger.queries.js'

/** 3/4 of the server's idle timeout (HTTP_CONNECTION_TIMEOUT_MS, 0: none), so an audit answers before it drops the connection. */
export const auditTimeLimitMs = (connectionTimeoutMs: number) =>
  connectionTimeoutMs > 0 ? Math.floor(connectionTimeoutMs * 0.75) : undefined

/**
 * An account's books checked as an operator would by hand (docs/design.md §5: the balance is the sum of the
 * ledger, always): each check with what it expected and found. An unknown account is a 404. Past
 * `timeLimitMs` the walk stops between ranges and answers 503 with how far it read, rather than run on
 * until the server's idle timeout or a proxy drops the connection unanswered.
 */
export async function auditLedger(
  db: Database,
  accountId: number,
  options: { chunk?: number; timeLimitMs?: number } = {},
): Promise<LedgerAudit> {
  const started = performance.now()
  const { timeLimitMs } = options
  const inTime = (read: AuditProgress) => {
    if (timeLimitMs === undefined || performance.now() - started < timeLimitMs) return
    throw new AppError('SERVICE_UNAVAILABLE', {
      detail: `the audit of account ${accountId} stopped at its time limit`,
      data: { audit: 'unfinished', time_limit_ms: timeLimitMs, ...read },
    })
  }
  // One snapshot over every range read: the books as of one instant, however long the account's history.
  // Read only, it takes no lock a purchase waits for.
  const r = await db.transaction().execute(async (trx) => {
    await useReadOnlySnapshot(trx)
    return findLedgerAudit(trx, accountId, options.chunk, inTime)
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
