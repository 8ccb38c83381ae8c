import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

// The second factor's own statements (enrol, check, clear) are the team module's, shared with the
// operators; these are the dashboard's reads of its users' second-factor columns.

/** Of these users, those with two-step verification on, by id. */
export async function usersWithSecondFactor(db: Database, userIds: number[]): Promise<number[]> {
  if (userIds.length === 0) return []
  const rows = await db
    .selectFrom('reseller_users')
    .select('id')
    .where('id', 'in', userIds)
    .where('totp_enabled_at', 'is not', null)
    .orderBy('id')
    .execute()
  return rows.map((r) => Number(r.id))
}

/** A user's two-step state: on since when, the recovery codes left, and a secret still being enrolled. */
export function secondFactorState(db: Database, userId: number) {
  return db
    .selectFrom('reseller_users as u')
    .innerJoin('accounts as a', 'a.id', 'u.account_id')
    .select([
      'u.email',
      'u.password_hash',
      'u.totp_enabled_at',
      'u.totp_secret_enc',
      'a.name as account_name',
      sql<number>`cardinality(u.recovery_code_hashes)`.as('recovery_codes_left'),
    ])
    .where('u.id', '=', userId)
    .executeTakeFirst()
}

/** The account's user, if it is one of the account's. */
export function userOfAccount(db: Database, accountId: number, userId: number) {
  return db
    .selectFrom('reseller_users')
    .select(['id', 'email', 'role'])
    .where('id', '=', userId)
    .where('account_id', '=', accountId)
    .executeTakeFirst()
}
