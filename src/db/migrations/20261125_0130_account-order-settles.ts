import { sql, type Kysely } from 'kysely'

// How many times an account's orders changed status (settleOrder counts, in the same transaction).
// With orders_count it versions the account's order list: a poll that finds both unchanged is
// answered from the page kept for them. Any starting value works; only a change must move it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE accounts ADD COLUMN order_settles bigint NOT NULL DEFAULT 0`.execute(db)
}
