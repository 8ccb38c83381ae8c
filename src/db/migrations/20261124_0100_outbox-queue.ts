import { sql, type Kysely } from 'kysely'

// The outbox becomes a queue (issue 9): a row lives from its commit until the relay turns it into
// deliveries, then it is deleted. Marked rows stayed in every index, and with autovacuum behind (or
// off) each relay walked all of them: 4–5 ms a pass after 38k events. A row carries its events,
// so an order born completed writes one row for order.paid and order.completed. No foreign keys:
// the row is written in the transaction that wrote its order, and each key check was a query.
const statements = [
  `DELETE FROM outbox_events WHERE processed_at IS NOT NULL`,
  `ALTER TABLE outbox_events ADD COLUMN events text[]`,
  `UPDATE outbox_events SET events = ARRAY[event]`,
  `ALTER TABLE outbox_events
     ALTER COLUMN events SET NOT NULL,
     DROP COLUMN event,
     DROP COLUMN processed_at,
     DROP CONSTRAINT IF EXISTS outbox_events_account_id_fkey,
     DROP CONSTRAINT IF EXISTS outbox_events_order_id_fkey,
     DROP CONSTRAINT IF EXISTS outbox_events_order_line_id_fkey`,
  `DROP INDEX IF EXISTS outbox_events_order_idx`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
