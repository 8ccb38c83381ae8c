import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import { sha256Hex } from '../../vault.js'
import { matchingHashes } from './passwords.js'

// Per email typed, on top of the per-address limit: guesses spread over many addresses still stop.
const FAILURES_BEFORE_LOCK = 10
export const LOCK_MINUTES = 15
// A day without failures forgets an email's count; rows of emails nobody has are not kept for ever.
const FORGET_AFTER_HOURS = 24

/** The email's users whose password matched (several: the person chooses the account), the lock's seconds left, or nothing. */
export type SignInResult = { userIds: number[] } | { locked: number } | undefined

/**
 * Email and password to the users they prove. The same work and the same outcome for an email nobody
 * has: one scrypt (a decoy's), and a failure count and lock kept per email typed, so that neither the
 * answer nor the lock tells which emails exist. Past FAILURES_BEFORE_LOCK failures the email is locked
 * for LOCK_MINUTES, whatever the password.
 */
export async function checkSignIn(db: Database, emailText: string, password: string): Promise<SignInResult> {
  const email = emailText.trim().toLowerCase()
  const emailHash = sha256Hex(email)
  const users = await db
    .selectFrom('reseller_users')
    .select(['id', 'password_hash'])
    .where('email', '=', email)
    .where('password_hash', 'is not', null)
    .orderBy('id')
    .execute()
  const lock = await db
    .selectFrom('reseller_sign_in_failures')
    .select(sql<number>`ceil(extract(epoch FROM locked_until - now()))::int`.as('seconds'))
    .where('email_hash', '=', emailHash)
    .executeTakeFirst()
  // Checked before the lock is, so a locked email costs what any other does.
  const matched = await matchingHashes(password, users as Array<{ id: number; password_hash: string }>)
  if (lock && lock.seconds > 0) return { locked: lock.seconds }
  if (matched.length > 0) {
    await db.deleteFrom('reseller_sign_in_failures').where('email_hash', '=', emailHash).execute()
    return { userIds: matched.map((u) => u.id) }
  }
  await countFailure(db, emailHash)
  return undefined
}

async function countFailure(db: Database, emailHash: string): Promise<void> {
  const reached = sql<boolean>`reseller_sign_in_failures.failures + 1 >= ${FAILURES_BEFORE_LOCK}`
  await db
    .insertInto('reseller_sign_in_failures')
    .values({ email_hash: emailHash, failures: 1 })
    .onConflict((oc) =>
      oc.column('email_hash').doUpdateSet({
        failures: sql`CASE WHEN ${reached} THEN 0 ELSE reseller_sign_in_failures.failures + 1 END`,
        locked_until: sql`CASE WHEN ${reached} THEN now() + make_interval(mins => ${LOCK_MINUTES}) ELSE reseller_sign_in_failures.locked_until END`,
        updated_at: sql`now()`,
      }),
    )
    .execute()
  await db
    .deleteFrom('reseller_sign_in_failures')
    .where('updated_at', '<', sql<Date>`now() - make_interval(hours => ${FORGET_AFTER_HOURS})`)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
    .execute()
}
