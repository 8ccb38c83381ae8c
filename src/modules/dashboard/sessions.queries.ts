import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import type { SignInStage } from '../../db/schema.js'

export async function deleteExpiredSessions(db: Database): Promise<void> {
  await db
    .deleteFrom('reseller_sessions')
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute()
}

/** A session of the users a sign-in proved, on the first of them, at `stage`, lasting `minutes`. */
export async function insertSession(
  db: Database,
  tokenHash: string,
  userIds: number[],
  stage: SignInStage,
  minutes: number,
): Promise<void> {
  await db
    .insertInto('reseller_sessions')
    .values({
      token_hash: tokenHash,
      user_id: userIds[0]!,
      user_ids: sql<number[]>`ARRAY[${sql.join(userIds)}]::bigint[]`,
      stage,
      expires_at: sql<Date>`now() + make_interval(mins => ${minutes})`,
    })
    .execute()
}

/** The live session's user, its account and how many accounts its sign-in proved; only a sign-in past every step. */
export function userOfLiveSession(db: Database, tokenHash: string) {
  return db
    .selectFrom('reseller_sessions as s')
    .innerJoin('reseller_users as u', 'u.id', 's.user_id')
    .innerJoin('accounts as a', 'a.id', 'u.account_id')
    .select(['u.id as user_id', 'u.account_id', 'u.email', 'u.role', 'a.name as account_name', 'a.status as account_status'])
    .select(sql<number>`cardinality(s.user_ids)`.as('accounts'))
    .where('s.token_hash', '=', tokenHash)
    .where('s.stage', '=', 'signed_in')
    .where('s.expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst()
}

/** A live sign-in still waiting for its second factor: the users its password proved. */
export function pendingSession(db: Database, tokenHash: string) {
  return db
    .selectFrom('reseller_sessions')
    .select(['user_ids'])
    .where('token_hash', '=', tokenHash)
    .where('stage', '=', 'second_factor')
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst()
}

/**
 * The second factor given: the session becomes a full sign-in of `userIds` on `userId`, lasting
 * `minutes` from now; false when it was no longer waiting (another tab finished it, or it lapsed).
 */
export async function completeSession(db: Database, tokenHash: string, userIds: number[], userId: number, minutes: number) {
  const done = await db
    .updateTable('reseller_sessions')
    .set({
      stage: 'signed_in',
      user_id: userId,
      user_ids: sql<number[]>`ARRAY[${sql.join(userIds)}]::bigint[]`,
      expires_at: sql<Date>`now() + make_interval(mins => ${minutes})`,
    })
    .where('token_hash', '=', tokenHash)
    .where('stage', '=', 'second_factor')
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst()
  return done.numUpdatedRows === 1n
}

export async function deleteSession(db: Database, tokenHash: string): Promise<void> {
  await db.deleteFrom('reseller_sessions').where('token_hash', '=', tokenHash).execute()
}

/** The users a session's sign-in proved, with their accounts, by account name. */
export function usersOfSession(db: Database, tokenHash: string) {
  return db
    .selectFrom('reseller_sessions as s')
    .innerJoin('reseller_users as u', (join) => join.on(sql<boolean>`u.id = ANY(s.user_ids)`))
    .innerJoin('accounts as a', 'a.id', 'u.account_id')
    .select(['u.id as user_id', 'u.role', 'a.name as account_name', 'a.status as account_status'])
    .where('s.token_hash', '=', tokenHash)
    .orderBy('a.name')
    .orderBy('u.id')
    .execute()
}

/** Points the session at another of its proved users that still exists; whether it did. */
export async function moveSessionToUser(db: Database, tokenHash: string, userId: number): Promise<boolean> {
  const switched = await db
    .updateTable('reseller_sessions')
    .set({ user_id: userId })
    .where('token_hash', '=', tokenHash)
    // A sign-in still waiting for its code switches nowhere (its pages are closed to it anyway).
    .where('stage', '=', 'signed_in')
    .where(sql<boolean>`${userId}::bigint = ANY(user_ids)`)
    // A user removed since the sign-in is gone from the choice too.
    .where((eb) => eb.exists(eb.selectFrom('reseller_users').select('id').where('id', '=', userId)))
    .executeTakeFirst()
  return switched.numUpdatedRows > 0n
}
