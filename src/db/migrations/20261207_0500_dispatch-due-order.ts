import { sql, type Kysely } from 'kysely'

// The upstream claim takes the earliest due requests in (next_attempt_at, id) order: with id in the
// index, the scan walks the due requests in that order and stops at the batch's size, instead of
// reading every due request and sorting them (a backlog of thousands read again at each claim).
const statements = [
  `CREATE INDEX dispatches_due_order_idx ON dispatches (next_attempt_at, id) WHERE status IN ('queued', 'sending', 'pending')`,
  `DROP INDEX dispatches_due_idx`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
