import { sql, type Kysely } from 'kysely'

// accounts.order_settles has had no reader since 0530 moved the order list's second counter to
// account_order_settles. It stayed one release, for processes of the release before still serving
// during a rolling deploy; no process of the release before this one reads it.
const statements = [`ALTER TABLE accounts DROP COLUMN order_settles`]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
