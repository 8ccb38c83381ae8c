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
