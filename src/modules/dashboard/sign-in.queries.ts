import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

/** The email's users that have a password, by id. */
export function usersWithPasswordOfEmail(db: Database, email: string) {
  return db
    .selectFrom('reseller_users')
    .select(['id', 'password_hash'])
    .where('email', '=', email)
    .where('password_hash', 'is not', null)
    .orderBy('id')
    .execute()
}

/** A user's email (what its sign-in failures are counted under). */
export async function emailOfUser(db: Database, userId: number): Promise<string | undefined> {
  return (await db.selectFrom('reseller_users').select('email').where('id', '=', userId).executeTakeFirst())?.email
}

/** The seconds left of the email's sign-in lock (zero or less once it ended), if it has a failure row. */
export function signInLockOf(db: Database, emailHash: string) {
  return db
    .selectFrom('reseller_sign_in_failures')
    .select(sql<number>`ceil(extract(epoch FROM locked_until - now()))::int`.as('seconds'))
    .where('email_hash', '=', emailHash)
    .executeTakeFirst()
}

export async function forgetSignInFailures(db: Database, emailHash: string): Promise<void> {
  await db.deleteFrom('reseller_sign_in_failures').where('email_hash', '=', emailHash).execute()
}

/** One more failure of the email; the one that reaches `failuresBeforeLock` restarts the count and locks it for `lockMinutes`. */
export async function countSignInFailure(db: Database, emailHash: string, failuresBeforeLock: number, lockMinutes: number): Promise<void> {
  const reached = sql<boolean>`reseller_sign_in_failures.failures + 1 >= ${failuresBeforeLock}`
  await db
    .insertInto('reseller_sign_in_failures')
    .values({ email_hash: emailHash, failures: 1 })
    .onConflict((oc) =>
      oc.column('email_hash').doUpdateSet({
        failures: sql`CASE WHEN ${reached} THEN 0 ELSE reseller_sign_in_failures.failures + 1 END`,
        locked_until: sql`CASE WHEN ${reached} THEN now() + make_interval(mins => ${lockMinutes}) ELSE reseller_sign_in_failures.locked_until END`,
        updated_at: sql`now()`,
      }),
    )
    .execute()
}

/** Deletes the failure rows untouched for `hours` whose lock, if any, has ended. */
export async function deleteStaleSignInFailures(db: Database, hours: number): Promise<void> {
  await db
    .deleteFrom('reseller_sign_in_failures')
    .where('updated_at', '<', sql<Date>`now() - make_interval(hours => ${hours})`)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
    .execute()
}
