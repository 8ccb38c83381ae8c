import { sql, type Kysely } from 'kysely'

// Per-month leaderboard aggregates (docs/design.md §9), kept by leaderboard.sql in the transaction that completes an order.
const statements = [
  // month: the first day of the month in LEADERBOARD_TZ. amount: completed Rupiah net of refunds.
  // points is derived here, so the rule "1 per Rp 1,000 of the month's total" has one home.
  `CREATE TABLE leaderboard_months (
    account_id bigint NOT NULL REFERENCES accounts(id),
    month date NOT NULL CHECK (extract(day FROM month) = 1),
    transactions integer NOT NULL DEFAULT 0 CHECK (transactions >= 0),
    amount bigint NOT NULL DEFAULT 0 CHECK (amount >= 0),
    points bigint GENERATED ALWAYS AS (amount / 1000) STORED,
    PRIMARY KEY (account_id, month)
  )`,
  // Rank = 1 + rows of the month with more points (a range of this index); the top ten is its head.
  `CREATE INDEX leaderboard_months_rank_idx ON leaderboard_months (month, points DESC, account_id)`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
