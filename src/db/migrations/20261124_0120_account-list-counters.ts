import { sql, type Kysely } from 'kysely'

// Exact counts of an account's orders and ledger entries, kept by the writes that add them
// (post_ledger_entry's update of the account row, which every purchase already makes), so an
// unfiltered list answers its total without counting: a whale's page cost 10,000 index entries.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE accounts ADD COLUMN orders_count bigint NOT NULL DEFAULT 0,
                                 ADD COLUMN ledger_count bigint NOT NULL DEFAULT 0`.execute(db)
  await sql`UPDATE accounts a SET orders_count = c.n FROM (SELECT account_id, count(*) AS n FROM orders GROUP BY 1) c
             WHERE c.account_id = a.id`.execute(db)
  await sql`UPDATE accounts a SET ledger_count = c.n FROM (SELECT account_id, count(*) AS n FROM ledger_entries GROUP BY 1) c
             WHERE c.account_id = a.id`.execute(db)
}
