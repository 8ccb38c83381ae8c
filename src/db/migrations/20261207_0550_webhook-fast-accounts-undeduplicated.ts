import { sql, type Kysely } from 'kysely'

// The claim's walk over the accounts with fast deliveries probes this index once per account. With
// one key per account, deduplication packed each account's entries into posting lists mixing dead
// row versions with live ones; such a list is never marked dead, so every probe fetched each dead
// version from the heap again (7,177 heap fetches, 4,317 buffers a walk over 100 accounts under a
// webhook backlog, where one entry per version lets the scans mark them: 99 and 366).
const statements = [
  `DROP INDEX webhook_deliveries_fast_idx`,
  `CREATE INDEX webhook_deliveries_fast_idx ON webhook_deliveries (account_id) WITH (deduplicate_items = off)
     WHERE (status = 'pending' OR (status = 'retrying' AND failures < 5))`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
