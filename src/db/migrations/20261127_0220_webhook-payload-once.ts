import { sql, type Kysely } from 'kysely'

// docs/design.md §8: an event's payload is the order as of that event, built once when the relay turns the
// outbox row into deliveries, so every retry and redelivery sends the same body under the same
// webhook-id. Stored as the order detail the statement reads (licenses still encrypted), with the
// event's time; NULL on deliveries relayed before this (they are sent from the order's state then).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE webhook_deliveries ADD COLUMN payload jsonb`.execute(db)
}
