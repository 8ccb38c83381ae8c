import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

/** A table of sign-in failures and the column of its key (a SHA-256): the console's per (email, address), the dashboard's per email. */
export type SignInFailures =
  { table: 'operator_sign_in_failures'; key: 'key_hash' } | { table: 'reseller_sign_in_failures'; key: 'email_hash' }
// Kysely types one table at a time: both have the same columns (SignInFailureColumns) beside their key.
const table = (failures: SignInFailures) => failures.table as 'operator_sign_in_failures'
const key = (failures: SignInFailures) => failures.key as 'key_hash'

/** The seconds left of the key's sign-in lock (zero or less once it ended), if it has a failure row. */
export function signInLockOf(db: Database, failures: SignInFailures, keyHash: string) {
  return db
    .selectFrom(table(failures))
    .select(sql<number>`ceil(extract(epoch FROM locked_until - now()))::int`.as('seconds'))
    .where(key(failures), '=', keyHash)
    .executeTakeFirst()
}

export async function forgetSignInFailures(db: Database, failures: SignInFailures, keyHash: string): Promise<void> {
  await db.deleteFrom(table(failures)).where(key(failures), '=', keyHash).execute()
}

/** One more failure of the key; the one that reaches `failuresBeforeLock` restarts the count and locks it for `lockMinutes`. */
export async function countSignInFailure(
  db: Database,
  failures: SignInFailures,
  keyHash: string,
  failuresBeforeLock: number,
  lockMinutes: number,
): Promise<void> {
  const count = sql.ref(`${failures.table}.failures`)
  const lockedUntil = sql.ref(`${failures.table}.locked_until`)
  const reached = sql<boolean>`${count} + 1 >= ${failuresBeforeLock}`
  await db
    .insertInto(table(failures))
    .values({ [failures.key]: keyHash, failures: 1 } as { key_hash: string; failures: number })
    .onConflict((oc) =>
      oc.column(key(failures)).doUpdateSet({
        failures: sql`CASE WHEN ${reached} THEN 0 ELSE ${count} + 1 END`,
        locked_until: sql`CASE WHEN ${reached} THEN now() + make_interval(mins => ${lockMinutes}) ELSE ${lockedUntil} END`,
        updated_at: sql`now()`,
      }),
    )
    .execute()
}

/** Deletes the failure rows untouched for `hours` whose lock, if any, has ended. */
export async function deleteStaleSignInFailures(db: Database, failures: SignInFailures, hours: number): Promise<void> {
  await db
    .deleteFrom(table(failures))
    .where('updated_at', '<', sql<Date>`now() - make_interval(hours => ${hours})`)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
    .execute()
}
