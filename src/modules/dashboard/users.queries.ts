import { sql, type ExpressionBuilder } from 'kysely'
import type { Database, Trx } from '../../db/database.js'
import type { DB } from '../../db/schema.js'
import { sha256Hex } from '../../vault.js'

const USER_COLUMNS = ['id', 'account_id', 'email', 'role', 'created_at'] as const

/** An invite's columns: the role, the hash of the link's token and when the link lapses. */
export type InviteValues = { role: DB['reseller_users']['role']; inviteHash: string; hours: number }

const inviteColumns = (invite: InviteValues) => ({
  role: invite.role,
  invite_hash: invite.inviteHash,
  invite_expires_at: sql<Date>`now() + make_interval(hours => ${invite.hours})`,
})

/** The account's user of this email, locked for the invite that renews or refuses it. */
export function lockUserOfAccountByEmail(trx: Trx, accountId: number, email: string) {
  return trx
    .selectFrom('reseller_users')
    .select(['id', 'password_hash'])
    .where('account_id', '=', accountId)
    .where('email', '=', email)
    .forUpdate()
    .executeTakeFirst()
}

/** A pending invite's new link (the old one stops). */
export function renewInvite(trx: Trx, userId: number, invite: InviteValues) {
  return trx
    .updateTable('reseller_users')
    .set({ ...inviteColumns(invite), updated_at: sql`now()` })
    .where('id', '=', userId)
    .returning([...USER_COLUMNS, 'invite_expires_at'])
    .executeTakeFirstOrThrow()
}

/** A new invited user; nothing when the account already has the email (a concurrent invite took it). */
export function insertInvite(trx: Trx, accountId: number, email: string, invite: InviteValues) {
  return trx
    .insertInto('reseller_users')
    .values({ account_id: accountId, email, ...inviteColumns(invite) })
    .onConflict((oc) => oc.columns(['account_id', 'email']).doNothing())
    .returning([...USER_COLUMNS, 'invite_expires_at'])
    .executeTakeFirst()
}

/** An account's users by id, each with whether a password was set and whether two-step verification is on. */
export function usersOfAccount(db: Database, accountId: number) {
  return db
    .selectFrom('reseller_users')
    .select([
      ...USER_COLUMNS,
      'invite_expires_at',
      sql<boolean>`password_hash IS NOT NULL`.as('active'),
      sql<boolean>`totp_enabled_at IS NOT NULL`.as('second_factor'),
    ])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute()
}

/** Deletes the account's user (its sessions go by the foreign key); nothing when it is not the account's. */
export function deleteUserOfAccount(db: Database, accountId: number, userId: number) {
  return db.deleteFrom('reseller_users').where('id', '=', userId).where('account_id', '=', accountId).returning('id').executeTakeFirst()
}

const liveInvite = (token: string) => (eb: ExpressionBuilder<DB, 'reseller_users'>) =>
  eb.and([eb('reseller_users.invite_hash', '=', sha256Hex(token)), eb('reseller_users.invite_expires_at', '>', sql<Date>`now()`)])

/** The live invite a link's token names, with its account's name. */
export function inviteByToken(db: Database, token: string) {
  return db
    .selectFrom('reseller_users')
    .innerJoin('accounts', 'accounts.id', 'reseller_users.account_id')
    .select(['reseller_users.id', 'reseller_users.email', 'reseller_users.role', 'accounts.name as account_name'])
    .where(liveInvite(token))
    .executeTakeFirst()
}

/** The user a live invite's token names. */
export function invitedUserByToken(db: Database, token: string) {
  return db.selectFrom('reseller_users').select(['id', 'email']).where(liveInvite(token)).executeTakeFirst()
}

/** Sets the invited user's password and ends the invite in one statement; nothing when the invite is no longer live. */
export function setInvitedPassword(db: Database, userId: number, token: string, passwordHash: string) {
  return db
    .updateTable('reseller_users')
    .set({ password_hash: passwordHash, invite_hash: null, invite_expires_at: null, updated_at: sql`now()` })
    .where('id', '=', userId)
    .where(liveInvite(token))
    .returning('id')
    .executeTakeFirst()
}

/** The first password hash of the email's other users (of other accounts). */
export async function otherPasswordOfEmail(db: Database, email: string, exceptId: number): Promise<string | null> {
  const row = await db
    .selectFrom('reseller_users')
    .select('password_hash')
    .where('email', '=', email)
    .where('id', '<>', exceptId)
    .where('password_hash', 'is not', null)
    .orderBy('id')
    .executeTakeFirst()
  return row?.password_hash ?? null
}

/** A user's email and password hash. */
export function userCredentials(db: Database, userId: number) {
  return db.selectFrom('reseller_users').select(['email', 'password_hash']).where('id', '=', userId).executeTakeFirst()
}

export async function setPassword(trx: Trx, userId: number, passwordHash: string): Promise<void> {
  await trx
    .updateTable('reseller_users')
    .set({ password_hash: passwordHash, updated_at: sql`now()` })
    .where('id', '=', userId)
    .execute()
}

/** Ends the sessions a user's sign-in opened (also those now on another of its email's accounts), but one. */
export async function deleteSessionsOfUserExcept(trx: Trx, userId: number, keepSessionHash: string): Promise<void> {
  await trx
    .deleteFrom('reseller_sessions')
    .where((eb) => eb.or([eb('user_id', '=', userId), eb(sql<number>`${userId}::bigint`, '=', eb.fn.any('user_ids'))]))
    .where('token_hash', '<>', keepSessionHash)
    .execute()
}
