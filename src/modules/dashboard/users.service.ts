import { inTransaction, type Database } from '../../db/database.js'
import { AppError, invalidField } from '../../errors.js'
import { randomToken, sha256Hex } from '../../vault.js'
import { getAccount } from '../accounts/index.js'
import { PASSWORD_MAX, PASSWORD_MIN, hashPassword, verifyPassword } from '../../passwords.js'
import {
  deleteSessionsOfUserExcept,
  deleteUserOfAccount,
  insertInvite,
  invitedUserByToken,
  inviteByToken,
  lockUserOfAccountByEmail,
  otherPasswordOfEmail,
  renewInvite,
  setInvitedPassword,
  setPassword,
  userCredentials,
  usersOfAccount,
} from './users.queries.js'

export const ROLES = ['owner', 'staff'] as const
export type Role = (typeof ROLES)[number]
/** docs/design.md §13: an invite link sets the password once and lapses after 72 hours. */
export const INVITE_HOURS = 72

const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/

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
  const invite = { role: input.role, inviteHash: sha256Hex(token), hours: INVITE_HOURS }
  const taken = () => new AppError('DUPLICATE', { fieldErrors: { email: ['is already a user of this account'] } })
  const user = await inTransaction(db, async (trx) => {
    const existing = await lockUserOfAccountByEmail(trx, accountId, email)
    if (existing?.password_hash) throw taken()
    if (existing) return renewInvite(trx, existing.id, invite)
    // Two invites of a new email at once: the second finds the first's row taken, not a 500.
    const inserted = await insertInvite(trx, accountId, email, invite)
    if (!inserted) throw taken()
    return inserted
  })
  return { ...user, token }
}

/** An account's users: `invited` until the invite link set a password. */
export async function listUsers(db: Database, accountId: number) {
  const rows = await usersOfAccount(db, accountId)
  return rows.map(({ active, ...u }) => ({ ...u, status: active ? ('active' as const) : ('invited' as const) }))
}

/** Removes a user of the account; its sessions go with it, so it is signed out everywhere at once. */
export async function removeUser(db: Database, accountId: number, userId: number): Promise<void> {
  const removed = await deleteUserOfAccount(db, accountId, userId)
  if (!removed) throw new AppError('USER_NOT_FOUND')
}

/** The pending invite a link names; unknown, used or lapsed is INVITE_NOT_FOUND. */
export async function findInvite(db: Database, token: string) {
  const invite = await inviteByToken(db, token)
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
  const invite = await invitedUserByToken(db, token)
  // An unknown link costs the same scrypt as a live one. A password of the email's in another
  // account is the salt donor: a new one of the email shares its salt (see hashPassword).
  const passwordHash = await hashPassword(password, invite ? await otherPasswordOfEmail(db, invite.email, invite.id) : null)
  const user = await setInvitedPassword(db, invite?.id ?? 0, token, passwordHash)
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
  const user = await userCredentials(db, userId)
  if (!user?.password_hash) throw new AppError('USER_NOT_FOUND')
  if (!(await verifyPassword(input.current, user.password_hash))) throw invalidField('current_password', 'is not your current password')
  checkNewPassword(input.password, input.repeated)
  const passwordHash = await hashPassword(input.password, await otherPasswordOfEmail(db, user.email, userId))
  await inTransaction(db, async (trx) => {
    await setPassword(trx, userId, passwordHash)
    // Also the sessions the old password opened that now look at another of the email's accounts: they could switch back.
    await deleteSessionsOfUserExcept(trx, userId, keepSessionHash)
  })
}
