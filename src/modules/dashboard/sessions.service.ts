import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import { randomToken, sha256Hex } from '../../vault.js'
import type { Role } from './users.service.js'

/** How long a dashboard sign-in lasts: a working day. */
export const SESSION_HOURS = 12

export type DashboardUser = {
  user_id: number
  account_id: number
  email: string
  role: Role
  account_name: string
  account_status: 'active' | 'suspended'
  /** How many accounts the sign-in proved: more than one offers the account chooser. */
  accounts: number
}

/**
 * Dashboard sign-ins, kept in the database so that a sign-out, an expiry or a removed user is seen by
 * every process at once; the cookie holds a random token, the table only its SHA-256.
 */
export async function startSession(db: Database, userIds: number[]): Promise<string> {
  const token = randomToken(32)
  await db
    .deleteFrom('reseller_sessions')
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute()
  await db
    .insertInto('reseller_sessions')
    .values({
      token_hash: sha256Hex(token),
      user_id: userIds[0]!,
      user_ids: sql<number[]>`ARRAY[${sql.join(userIds)}]::bigint[]`,
      expires_at: sql<Date>`now() + make_interval(hours => ${SESSION_HOURS})`,
    })
    .execute()
  return token
}

export async function sessionUser(db: Database, token: string | undefined): Promise<DashboardUser | undefined> {
  if (!token || token.length > 200) return undefined
  return db
    .selectFrom('reseller_sessions as s')
    .innerJoin('reseller_users as u', 'u.id', 's.user_id')
    .innerJoin('accounts as a', 'a.id', 'u.account_id')
    .select(['u.id as user_id', 'u.account_id', 'u.email', 'u.role', 'a.name as account_name', 'a.status as account_status'])
    .select(sql<number>`cardinality(s.user_ids)`.as('accounts'))
    .where('s.token_hash', '=', sha256Hex(token))
    .where('s.expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst()
}

export async function endSession(db: Database, token: string | undefined): Promise<void> {
  if (token) await db.deleteFrom('reseller_sessions').where('token_hash', '=', sha256Hex(token)).execute()
}

/** The accounts the session's sign-in proved (the chooser's list), the current one among them. */
export async function sessionAccounts(db: Database, token: string | undefined) {
  return db
    .selectFrom('reseller_sessions as s')
    .innerJoin('reseller_users as u', (join) => join.on(sql<boolean>`u.id = ANY(s.user_ids)`))
    .innerJoin('accounts as a', 'a.id', 'u.account_id')
    .select(['u.id as user_id', 'u.role', 'a.name as account_name', 'a.status as account_status'])
    .where('s.token_hash', '=', sha256Hex(token ?? ''))
    .orderBy('a.name')
    .orderBy('u.id')
    .execute()
}

/** Moves the session to another user its sign-in proved; false for any other (another account's is a 404). */
export async function switchAccount(db: Database, token: string | undefined, userId: number): Promise<boolean> {
  const switched = await db
    .updateTable('reseller_sessions')
    .set({ user_id: userId })
    .where('token_hash', '=', sha256Hex(token ?? ''))
    .where(sql<boolean>`${userId}::bigint = ANY(user_ids)`)
    // A user removed since the sign-in is gone from the choice too.
    .where((eb) => eb.exists(eb.selectFrom('reseller_users').select('id').where('id', '=', userId)))
    .executeTakeFirst()
  return switched.numUpdatedRows > 0n
}
