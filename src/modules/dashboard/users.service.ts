import { sql, type ExpressionBuilder } from 'kysely'
import { inTransaction, type Database } from '../../db/database.js'
import type { DB } from '../../db/schema.js'
import { AppError, invalidField } from '../../errors.js'
import { randomToken, sha256Hex } from '../../vault.js'
import { getAccount } from '../accounts/index.js'
import { PASSWORD_MAX, PASSWORD_MIN, hashPassword, spendDecoy, verifyPassword } from './passwords.js'

export const ROLES = ['owner', 'staff'] as const
export type Role = (typeof ROLES)[number]
/** DESIGN §13: an invite link sets the password once and lapses after 72 hours. */
export const INVITE_HOURS = 72
// Per email, on top of the per-address limit: guesses spread over many addresses still stop.
const FAILURES_BEFORE_LOCK = 10
const LOCK_MINUTES = 15

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
  const taken = () => new AppError('DUPLICATE', { fieldErrors: { email: ['already belongs to a dashboard user; remove that user first'] } })
  const user = await inTransaction(db, async (trx) => {
    const existing = await trx
      .selectFrom('reseller_users')
      .select(['id', 'account_id', 'password_hash'])
      .where('email', '=', email)
      .forUpdate()
      .executeTakeFirst()
    if (existing && (existing.account_id !== accountId || existing.password_hash !== null)) throw taken()
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
      .onConflict((oc) => oc.column('email').doNothing())
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

/** Sets the password an invite asked for, once: the link stops working in the same statement. */
export async function acceptInvite(db: Database, token: string, password: string, repeated: string): Promise<number> {
  checkNewPassword(password, repeated)
  const passwordHash = await hashPassword(password)
  const user = await db
    .updateTable('reseller_users')
    .set({ password_hash: passwordHash, invite_hash: null, invite_expires_at: null, updated_at: sql`now()` })
    .where(liveInvite(token))
    .returning('id')
    .executeTakeFirst()
  if (!user) throw new AppError('INVITE_NOT_FOUND')
  return user.id
}

export type SignInResult = { userId: number } | { locked: number } | undefined

/**
 * Email and password to a user id. Past FAILURES_BEFORE_LOCK wrong passwords the email is locked for
 * LOCK_MINUTES, whatever the password: `locked` answers the seconds left. Undefined: wrong email or password.
 */
export async function checkSignIn(db: Database, emailText: string, password: string): Promise<SignInResult> {
  const email = emailText.trim().toLowerCase()
  const user = await db
    .selectFrom('reseller_users')
    .select(['id', 'password_hash', sql<number>`ceil(extract(epoch FROM locked_until - now()))::int`.as('locked_for')])
    .where('email', '=', email)
    .executeTakeFirst()
  if (!user?.password_hash) {
    await spendDecoy(password)
    return undefined
  }
  if (user.locked_for > 0) return { locked: user.locked_for }
  if (await verifyPassword(password, user.password_hash)) {
    await db.updateTable('reseller_users').set({ failed_sign_ins: 0, locked_until: null }).where('id', '=', user.id).execute()
    return { userId: user.id }
  }
  await db
    .updateTable('reseller_users')
    .set({
      failed_sign_ins: sql`CASE WHEN failed_sign_ins + 1 >= ${FAILURES_BEFORE_LOCK} THEN 0 ELSE failed_sign_ins + 1 END`,
      locked_until: sql`CASE WHEN failed_sign_ins + 1 >= ${FAILURES_BEFORE_LOCK} THEN now() + make_interval(mins => ${LOCK_MINUTES}) ELSE locked_until END`,
    })
    .where('id', '=', user.id)
    .execute()
  return undefined
}

/**
 * A signed-in user's new password, given the current one; every other session of theirs ends, so a
 * password changed because it leaked also signs out whoever used it.
 */
export async function changePassword(
  db: Database,
  userId: number,
  keepSessionHash: string,
  input: { current: string; password: string; repeated: string },
): Promise<void> {
  const user = await db.selectFrom('reseller_users').select('password_hash').where('id', '=', userId).executeTakeFirst()
  if (!user?.password_hash) throw new AppError('USER_NOT_FOUND')
  if (!(await verifyPassword(input.current, user.password_hash))) throw invalidField('current_password', 'is not your current password')
  checkNewPassword(input.password, input.repeated)
  const passwordHash = await hashPassword(input.password)
  await inTransaction(db, async (trx) => {
    await trx
      .updateTable('reseller_users')
      .set({ password_hash: passwordHash, updated_at: sql`now()` })
      .where('id', '=', userId)
      .execute()
    await trx.deleteFrom('reseller_sessions').where('user_id', '=', userId).where('token_hash', '<>', keepSessionHash).execute()
  })
}
