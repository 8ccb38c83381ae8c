import { sql, type Kysely } from 'kysely'

// Operator alerts' conditions (docs/design.md §11e): a provider's definite failures in the last
// minutes, read every evaluation, by an index beside the completed ones' (supplier balances).
const statements = [`CREATE INDEX dispatches_provider_failed_idx ON dispatches (provider, finished_at) WHERE status = 'failed'`]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
