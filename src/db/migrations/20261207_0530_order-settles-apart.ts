import { sql, type Kysely } from 'kysely'

// The order list's second counter leaves the account row: every batch of provider answers bumped
// accounts.order_settles, so it waited for the account rows purchases were debiting and held them
// while it committed (h2h purchases queued on their accounts behind the recording of answers).
// A row per account whose orders ever changed status; an account without one counts 0.
// accounts.order_settles stays, unused: a process of the version before, still running in a rolling
// deploy, reads it for its order-list version (there it stops moving, so that process's kept list
// pages may lag a settle until it is replaced; a dropped column would fail its every list). A later
// migration may drop it.
const statements = [
  `CREATE TABLE account_order_settles (
     account_id bigint PRIMARY KEY REFERENCES accounts (id),
     settles bigint NOT NULL
   )`,
  `INSERT INTO account_order_settles (account_id, settles) SELECT id, order_settles FROM accounts WHERE order_settles <> 0`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
