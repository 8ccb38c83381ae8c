import { sql, type Kysely } from 'kysely'

// The console's language per person (docs/design.md §13: one catalogue per language, shared with the
// dashboard): what an operator last switched to, on every browser they sign in from. NULL: the browser's choice.
const statements = [`ALTER TABLE operators ADD COLUMN console_lang text CHECK (console_lang IN ('en', 'id'))`]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
