import { sql, type ExpressionBuilder } from 'kysely'
import { inTransaction, type Database } from '../../db/database.js'
import type { DB } from '../../db/schema.js'
import { AppError, invalidField } from '../../errors.js'
import { randomToken, sha256Hex } from '../../vault.js'
import { getAccount } from '../accounts/index.js'
import { PASSWORD_MAX, PASSWORD_MIN, hashPassword, verifyPassword } from './passwords.js'

export const ROLES = ['owner', 'staff'] as const
export type Role = (typeof ROLES)[number]
/** docs/design.md §13: an invite link sets the password once and lapses after 72 hours. */
export const INVITE_HOURS = 72

const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/
const USER_COLUMNS = ['id', 'account_id', 'email', 'role', 'created_at'] as const

export function normalEmail(email: string): string {
  const e = email.trim().toLowerCase()
  if (e.length > 191 || !EMAIL.test(e)) throw invalidField('email', 'must be an email address, like name@example.com')
  return e
}

/**
 * Invites a person to an account's dashboard: a one-time token (only its hash is kept) that sets the
 * password. Inviting an email again while its invite is pending issues a new link (the old one stops).
 * An email may be a user of several accounts, one row (and one password) each: whether it is another
 * account's user is never asked, so the answer cannot tell.
 */
export async function inviteUser(db: Database, accountId: number, input: { email: string; role: Role }) {
  const email = normalEmail(input.email)
  await getAccount(db, accountId)
  const token = randomToken(32)
  const invite = {
    role: input.role,
    invite_hash: sha256Hex(token),
    invite_expires_at: sql<Date>`now() + make_interval(hours => ${INVITE_HOURS})`,
  }
  const taken = () => new AppError('DUPLICATE', { fieldErrors: { email: ['is already a user of this account'] } })
  const user = await inTransaction(db, async (trx) => {
    const existing = await trx
      .selectFrom('reseller_users')
      .select(['id', 'password_hash'])
      .where('account_id', '=', accountId)
      .where('email', '=', email)
      .forUpdate()
      .executeTakeFirst()
    if (existing?.password_hash) throw taken()
    if (existing) {
      return trx
        .updateTable('reseller_users')
        .set({ ...invite, updated_at: sql`now()` })
        .where('id', '=', existing.id)
        .returning([...USER_COLUMNS, 'invite_expires_at'])
        .executeTakeFirstOrThrow()
    }
    // Two invites of a new email at once: the second finds the first's row taken, not a 500.
    const inserted = await trx
      .insertInto('reseller_users')
      .values({ account_id: accountId, email, ...invite })
      .onConflict((oc) => oc.columns(['account_id', 'email']).doNothing())
      .returning([...USER_COLUMNS, 'invite_expires_at'])
      .executeTakeFirst()
    if (!inserted) throw taken()
    return inserted
  })
  return { ...user, token }
}

/** An account's users: `invited` until the invite link set a password. */
export async function listUsers(db: Database, accountId: number) {
  const rows = await db
    .selectFrom('reseller_users')
    .select([...USER_COLUMNS, 'invite_expires_at', sql<boolean>`password_hash IS NOT NULL`.as('active')])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute()
  return rows.map(({ active, ...u }) => ({ ...u, status: active ? ('active' as const) : ('invited' as const) }))
}

/** Removes a user of the account; its sessions go with it, so it is signed out everywhere at once. */
export async function removeUser(db: Database, accountId: number, userId: number): Promise<void> {
  const removed = await db
    .deleteFrom('reseller_users')
    .where('id', '=', userId)
    .where('account_id', '=', accountId)
    .returning('id')
    .executeTakeFirst()
  if (!removed) throw new AppError('USER_NOT_FOUND')
}

const liveInvite = (token: string) => (eb: ExpressionBuilder<DB, 'reseller_users'>) =>
  eb.and([eb('reseller_users.invite_hash', '=', sha256Hex(token)), eb('reseller_users.invite_expires_at', '>', sql<Date>`now()`)])

/** The pending invite a link names; unknown, used or lapsed is INVITE_NOT_FOUND. */
export async function findInvite(db: Database, token: string) {
  const invite = await db
    .selectFrom('reseller_users')
    .innerJoin('accounts', 'accounts.id', 'reseller_users.account_id')
    .select(['reseller_users.id', 'reseller_users.email', 'reseller_users.role', 'accounts.name as account_name'])
    .where(liveInvite(token))
    .executeTakeFirst()
  if (!invite) throw new AppError('INVITE_NOT_FOUND')
  return invite
}

export function checkNewPassword(password: string, repeated: string): void {
  if (password.length < PASSWORD_MIN) throw invalidField('password', `must be at least ${PASSWORD_MIN} characters`)
  if (password.length > PASSWORD_MAX) throw invalidField('password', `must be at most ${PASSWORD_MAX} characters`)
  if (password !== repeated) throw invalidField('password_again', 'must repeat the password exactly')
}

/** A password of the email's in another account: a new one of the email shares its salt (see hashPassword). */
async function saltDonor(db: Database, email: string, exceptId: number): Promise<string | null> {
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

/** Sets the password an invite asked for, once: the link stops working in the same statement. */
export async function acceptInvite(db: Database, token: string, password: string, repeated: string): Promise<number> {
  checkNewPassword(password, repeated)
  const invite = await db.selectFrom('reseller_users').select(['id', 'email']).where(liveInvite(token)).executeTakeFirst()
  // An unknown link costs the same scrypt as a live one.
  const passwordHash = await hashPassword(password, invite ? await saltDonor(db, invite.email, invite.id) : null)
  const user = await db
    .updateTable('reseller_users')
    .set({ password_hash: passwordHash, invite_hash: null, invite_expires_at: null, updated_at: sql`now()` })
    .where('id', '=', invite?.id ?? 0)
    .where(liveInvite(token))
    .returning('id')
    .executeTakeFirst()
  if (!user) throw new AppError('INVITE_NOT_FOUND')
  return user.id
}

/**
 * A signed-in user's new password, given the current one; every other session it opened ends, so a
 * password changed because it leaked also signs out whoever used it.
 */
export async function changePassword(
  db: Database,
  userId: number,
  keepSessionHash: string,
  input: { current: string; password: string; repeated: string },
): Promise<void> {
  const user = await db.selectFrom('reseller_users').select(['email', 'password_hash']).where('id', '=', userId).executeTakeFirst()
  if (!user?.password_hash) throw new AppError('USER_NOT_FOUND')
  if (!(await verifyPassword(input.current, user.password_hash))) throw invalidField('current_password', 'is not your current password')
  checkNewPassword(input.password, input.repeated)
  const passwordHash = await hashPassword(input.password, await saltDonor(db, user.email, userId))
  await inTransaction(db, async (trx) => {
    await trx
      .updateTable('reseller_users')
      .set({ password_hash: passwordHash, updated_at: sql`now()` })
      .where('id', '=', userId)
      .execute()
    // Also the sessions the old password opened that now look at another of the email's accounts: they could switch back.
    await trx
      .deleteFrom('reseller_sessions')
      .where((eb) => eb.or([eb('user_id', '=', userId), eb(sql<number>`${userId}::bigint`, '=', eb.fn.any('user_ids'))]))
      .where('token_hash', '<>', keepSessionHash)
      .execute()
  })
}
