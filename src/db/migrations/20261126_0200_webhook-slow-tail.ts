import { sql, type Kysely } from 'kysely'

// The claim walks the accounts with deliveries at their first attempt or in the fast retries; those
// in the slow tail (failures ≥ 5: a receiver down a minute or more) are found by when they fall due.
// Both predicates are spelled as delivery.queries.ts spells them, so the planner proves them.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX webhook_deliveries_fast_idx ON webhook_deliveries (account_id)
              WHERE (status = 'pending' OR (status = 'retrying' AND failures < 5))`.execute(db)
  await sql`CREATE INDEX webhook_deliveries_slow_idx ON webhook_deliveries (next_attempt_at, id)
              WHERE status = 'retrying' AND failures >= 5`.execute(db)
}
