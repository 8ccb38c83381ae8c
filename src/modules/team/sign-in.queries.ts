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
