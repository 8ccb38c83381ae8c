import { sql, type Kysely } from 'kysely'

// The claim takes each account's due deliveries in (next_attempt_at, id) order up to its room; a
// relay pass gives a whole batch one next_attempt_at, so without id in the key every due row of the
// account was read and sorted to take the first few (2,726 buffers for 92 accounts, under a backlog).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX webhook_deliveries_due_idx`.execute(db)
  await sql`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (account_id, next_attempt_at, id)
              WHERE status IN ('pending', 'retrying')`.execute(db)
}
