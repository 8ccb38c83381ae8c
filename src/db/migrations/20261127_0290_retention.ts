import { sql, type Kysely } from 'kysely'

// What the retention worker (src/workers/retention.ts) deletes by age, found by index: BRIN on the
// append-ordered logs (a few pages, nothing on the hot path to maintain), a partial btree on the
// inquiries nobody paid.
const statements = [
  `CREATE INDEX webhook_deliveries_created_brin ON webhook_deliveries USING brin (created_at)`,
  `CREATE INDEX supplier_changes_at_brin ON supplier_changes USING brin (at)`,
  `CREATE INDEX bill_inquiries_unpaid_idx ON bill_inquiries (expires_at) WHERE order_line_id IS NULL`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
