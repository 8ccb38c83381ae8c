import { sql, type Kysely } from 'kysely'

// Supplier balances (docs/design.md §11e): what the operator has left at each provider, as last read
// over its own protocol. Routing holds a request back from a source whose known IDR balance is below
// its cost (catalog/sources.sql: source_funded).
const statements = [
  `CREATE TABLE provider_balances (
    provider text PRIMARY KEY REFERENCES providers(code) ON DELETE CASCADE,
    -- The last successful read (NULL until one succeeded).
    balance numeric(24, 4),
    currency text,
    read_at timestamptz,
    -- The last attempt, successful or not, and why it failed.
    tried_at timestamptz NOT NULL,
    error text,
    CHECK ((balance IS NULL) = (read_at IS NULL))
  )`,
  // An operator's read now is theirs in the audit log; the worker's reads are not operator writes.
  `CREATE TRIGGER provider_balances_audit AFTER INSERT OR UPDATE OR DELETE ON provider_balances FOR EACH ROW
    WHEN (current_setting('audit.action', true) <> '') EXECUTE FUNCTION audit_row('provider')`,
  // The 24 hours' spend per provider (GET /providers/{code}/balance): completed requests by finish time.
  `CREATE INDEX dispatches_provider_finished_idx ON dispatches (provider, finished_at) WHERE status = 'completed'`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
