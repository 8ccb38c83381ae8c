import { sql, type Kysely } from 'kysely'

// credit_line_refund() takes the entry's reference (a complaint's refund has its own): CREATE OR
// REPLACE cannot add an argument, so the old signature goes here and settlement.sql creates the new one.
const statements = [`DROP FUNCTION IF EXISTS credit_line_refund(bigint, bigint, text, bigint, bigint, text)`]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
