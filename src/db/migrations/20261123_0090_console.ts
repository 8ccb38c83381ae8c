import { sql, type Kysely } from 'kysely'

// The operator console (issue 15): sign-in sessions, and the indexes its overview counts by.
const statements = [
  // Server-side, so every process sees a sign-out at once; only the token's SHA-256 is kept.
  `CREATE TABLE console_sessions (
    token_hash text PRIMARY KEY,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
  )`,
  `CREATE INDEX console_sessions_expiry_idx ON console_sessions (expires_at)`,
  // Sales today/this month: BRIN costs a purchase next to nothing (orders arrive in time order).
  `CREATE INDEX orders_created_brin ON orders USING brin (created_at)`,
  // Queues: only the rows waiting are indexed, so the counts stay small reads.
  `CREATE INDEX order_lines_manual_pending_idx ON order_lines (order_id) WHERE order_process = 'manual' AND status = 'pending'`,
  `CREATE INDEX webhook_deliveries_failed_idx ON webhook_deliveries (account_id) WHERE status = 'failed'`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
