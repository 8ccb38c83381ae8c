import { sql, type Kysely } from 'kysely'

// docs/design.md §7: a gateway's PAID whose paid total differs from the top-up's total credits nothing by
// itself; the top-up waits in `review` for an operator, who credits the requested amount, another
// amount, or nothing. Recorded: the gateway's paid total (NULL when it sent none usable), why it is
// in review, what was credited, and the operator's reason and time.
const MONEY_MAX = '1000000000000000'
const statements = [
  `ALTER TABLE topups DROP CONSTRAINT topups_status_check`,
  // NOT VALID, then VALIDATE: the scan runs without the exclusive lock (every old status is allowed).
  `ALTER TABLE topups ADD CONSTRAINT topups_status_check CHECK (status IN ('pending', 'paid', 'expired', 'failed', 'review')) NOT VALID`,
  `ALTER TABLE topups VALIDATE CONSTRAINT topups_status_check`,
  `ALTER TABLE topups ADD COLUMN paid_total bigint CHECK (paid_total >= 0)`,
  `ALTER TABLE topups ADD COLUMN review_reason text`,
  `ALTER TABLE topups ADD COLUMN credited_amount bigint CHECK (credited_amount >= 0 AND credited_amount <= ${MONEY_MAX})`,
  `ALTER TABLE topups ADD COLUMN resolution_reason text`,
  `ALTER TABLE topups ADD COLUMN resolved_at timestamptz`,
  // The operator's queue: few rows, counted on every overview.
  `CREATE INDEX topups_review_idx ON topups (id) WHERE status = 'review'`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
