import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

/** The active operator of an email who has a password (an invited one has none yet). */
export function findSignInOperator(db: Database, email: string) {
  return db
    .selectFrom('operators')
    .select(['id', 'email', 'name', 'role', 'password_hash', 'totp_enabled_at'])
    .where('email', '=', email)
    .where('status', '=', 'active')
    .where('password_hash', 'is not', null)
    .executeTakeFirst()
}

/** The seconds left of the key's sign-in lock (zero or less once it ended), if it has a failure row. */
export function signInLockOf(db: Database, keyHash: string) {
  return db
    .selectFrom('operator_sign_in_failures')
    .select(sql<number>`ceil(extract(epoch FROM locked_until - now()))::int`.as('seconds'))
    .where('key_hash', '=', keyHash)
    .executeTakeFirst()
}

export async function forgetSignInFailures(db: Database, keyHash: string): Promise<void> {
  await db.deleteFrom('operator_sign_in_failures').where('key_hash', '=', keyHash).execute()
}

/** One more failure of the key; the one that reaches `failuresBeforeLock` restarts the count and locks it for `lockMinutes`. */
export async function countSignInFailure(db: Database, keyHash: string, failuresBeforeLock: number, lockMinutes: number): Promise<void> {
  const reached = sql<boolean>`operator_sign_in_failures.failures + 1 >= ${failuresBeforeLock}`
  await db
    .insertInto('operator_sign_in_failures')
    .values({ key_hash: keyHash, failures: 1 })
    .onConflict((oc) =>
      oc.column('key_hash').doUpdateSet({
        failures: sql`CASE WHEN ${reached} THEN 0 ELSE operator_sign_in_failures.failures + 1 END`,
        locked_until: sql`CASE WHEN ${reached} THEN now() + make_interval(mins => ${lockMinutes}) ELSE operator_sign_in_failures.locked_until END`,
        updated_at: sql`now()`,
      }),
    )
    .execute()
}

/** Deletes the failure rows untouched for `hours` whose lock, if any, has ended. */
export async function deleteStaleSignInFailures(db: Database, hours: number): Promise<void> {
  await db
    .deleteFrom('operator_sign_in_failures')
    .where('updated_at', '<', sql<Date>`now() - make_interval(hours => ${hours})`)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
    .execute()
}
