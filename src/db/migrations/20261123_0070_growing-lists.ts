import { sql, type Kysely } from 'kysely'

// Filtered pages of an account's orders and ledger read an index instead of walking all its rows.
// Both are partial on what a sale does not write (a completed order, a purchase entry): the
// purchase gains no index entry, and the dense filters (completed, purchase, debit) walk the
// account's own index, where most rows match.
const statements = [
  `CREATE INDEX orders_account_open_idx ON orders (account_id, status, id DESC) WHERE status <> 'completed'`,
  `CREATE INDEX ledger_entries_account_credit_idx ON ledger_entries (account_id, id DESC) WHERE type <> 'purchase'`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
