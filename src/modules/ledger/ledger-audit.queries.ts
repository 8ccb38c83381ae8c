import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

export type LedgerAuditRow = {
  balance: number
  orders_count: number
  ledger_count: number
  entries: number
  ledger_balance: number
  purchases_debited: number
  purchase_debits: number
  orders: number
  /** Orders that cost something: a free order posts no debit. */
  orders_charged: number
  orders_amount: number
  refunds_credited: number
  lines_refunded: number
  topups_credited: number
  topups_paid: number
  break_count: number
  /** The first BREAKS_LISTED entries whose balance_before is not the balance_after of the entry before (the first starts at 0). */
  breaks: { entry_id: number; balance_before: number; expected: number }[]
}

// Breaks past this many are counted, not listed: one is enough to open an investigation.
export const BREAKS_LISTED = 20

/**
 * One account's books in one statement, so in one snapshot: the balance against its ledger, the
 * ledger's chain of balances, and the ledger against what it pays for (orders debited, refunds and
 * top-ups credited). Every read goes through the account's indexes.
 */
export async function findLedgerAudit(db: Database, accountId: number): Promise<LedgerAuditRow | undefined> {
  const { rows } = await sql<LedgerAuditRow>`
    WITH e AS (
      SELECT id, direction, type, amount, balance_before,
             coalesce(lag(balance_after) OVER (ORDER BY id), 0) AS expected
        FROM ledger_entries WHERE account_id = ${accountId}
    ), sums AS (
      SELECT count(*)::int AS entries,
             coalesce(sum(CASE WHEN direction = 'credit' THEN amount ELSE -amount END), 0)::bigint AS ledger_balance,
             coalesce(sum(amount) FILTER (WHERE type = 'purchase'), 0)::bigint AS purchases_debited,
             count(*) FILTER (WHERE type = 'purchase')::int AS purchase_debits,
             coalesce(sum(amount) FILTER (WHERE type = 'refund'), 0)::bigint AS refunds_credited,
             coalesce(sum(amount) FILTER (WHERE type = 'topup'), 0)::bigint AS topups_credited,
             count(*) FILTER (WHERE balance_before <> expected)::int AS break_count
        FROM e
    )
    SELECT a.balance, a.orders_count, a.ledger_count, sums.*,
           o.orders, o.orders_charged, o.orders_amount, r.lines_refunded, t.topups_paid, b.breaks
      FROM accounts a CROSS JOIN sums
     CROSS JOIN LATERAL (SELECT coalesce(jsonb_agg(jsonb_build_object('entry_id', id, 'balance_before', balance_before, 'expected', expected)
                                                   ORDER BY id), '[]') AS breaks
                           FROM (SELECT * FROM e WHERE balance_before <> expected ORDER BY id LIMIT ${BREAKS_LISTED}) first) b
     CROSS JOIN LATERAL (SELECT count(*)::int AS orders, count(*) FILTER (WHERE amount > 0)::int AS orders_charged,
                                coalesce(sum(amount), 0)::bigint AS orders_amount
                           FROM orders WHERE account_id = a.id) o
     CROSS JOIN LATERAL (SELECT coalesce(sum(l.refunded_amount), 0)::bigint AS lines_refunded
                           FROM orders ord JOIN order_lines l ON l.order_id = ord.id WHERE ord.account_id = a.id) r
     CROSS JOIN LATERAL (SELECT coalesce(sum(amount), 0)::bigint AS topups_paid
                           FROM topups WHERE account_id = a.id AND status = 'paid') t
     WHERE a.id = ${accountId}`.execute(db)
  return rows[0]
}
