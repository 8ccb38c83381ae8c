import { sql, type Kysely } from 'kysely'

// docs/design.md §11c: purchase() takes each cart line's max_price (p_max_prices). CREATE OR REPLACE cannot
// add an argument, so the old signature goes here and purchase.sql creates the new one.
const statements = [`DROP FUNCTION IF EXISTS purchase(bigint, text, text, bigint[], integer[], text[], text, text[], bigint)`]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
