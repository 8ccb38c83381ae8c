import { inTransaction, type Database } from '../../db/database.js'
import { AppError } from '../../errors.js'
import { verifyPassword } from '../../passwords.js'
import type { Vault } from '../../vault.js'
import {
  beginEnrolment,
  checkSecondFactor,
  confirmEnrolment,
  groupedSecret,
  pendingEnrolment,
  qrSvg,
  resetSecondFactor,
} from '../team/index.js'
import { countSignInFailureOf, signInLockSeconds } from './sign-in.service.js'
import { secondFactorState, userOfAccount } from './two-step.queries.js'
import { deleteSessionsOfUserExcept } from './users.queries.js'

// An owner's own two-step verification (docs/design.md §11d, §13): the operators' second factor
// (RFC 6238, the team module's enrolment and checks) on the dashboard user's row.

/** How an authenticator app names the entry: the service's host, and the email with the account (one email may have several). */
const entryOf = (publicUrl: string, user: { email: string; account_name: string }) => ({
  issuer: new URL(publicUrl).hostname,
  account: `${user.email} (${user.account_name})`,
})

async function stateOf(db: Database, userId: number) {
  const found = await secondFactorState(db, userId)
  if (!found) throw new AppError('USER_NOT_FOUND')
  return found
}

/** What the account page shows: whether it is on, since when, and how many recovery codes are left. */
export async function twoStepOf(db: Database, userId: number) {
  const { totp_enabled_at, recovery_codes_left } = await stateOf(db, userId)
  return { on: totp_enabled_at !== null, since: totp_enabled_at, recoveryCodesLeft: Number(recovery_codes_left) }
}

/** Starts an enrolment (a new secret each time, until a code confirms one); INVALID_STATE when it is on already. */
export async function startTwoStep(db: Database, vault: Vault, userId: number, publicUrl: string): Promise<void> {
  const user = await stateOf(db, userId)
  if (user.totp_enabled_at) throw new AppError('INVALID_STATE', { detail: 'two-step verification is on already' })
  const { issuer, account } = entryOf(publicUrl, user)
  await beginEnrolment(db, vault, 'reseller_users', userId, issuer, account)
}

/** The enrolment under way: its secret, the `otpauth://` URI and that URI's QR code; nothing when none is. */
export async function pendingTwoStep(db: Database, vault: Vault, userId: number, publicUrl: string) {
  const user = await stateOf(db, userId)
  const { issuer, account } = entryOf(publicUrl, user)
  const pending = pendingEnrolment(vault, user, issuer, account)
  if (!pending) return undefined
  return { secret: groupedSecret(pending.secret), uri: pending.uri, qr: await qrSvg(pending.uri) }
}

/** The app's first code turns it on; answers the ten recovery codes (shown once), or false for a wrong code. */
export async function confirmTwoStep(db: Database, vault: Vault, userId: number, code: string, at: Date): Promise<string[] | false> {
  try {
    return (await confirmEnrolment(db, vault, 'reseller_users', userId, code, at)).recoveryCodes
  } catch (error) {
    if (error instanceof AppError && error.code === 'VALIDATION_ERROR') return false
    throw error
  }
}

export type TurnOff = { off: true } | { wrong: true } | { locked: number }

/**
 * Turns it off, given a code (of the app or a recovery code) or the password. A wrong one counts
 * as a failed sign-in of the email, and a locked email is refused: a borrowed session cannot guess
 * its way to switching the second factor off.
 */
export async function turnOffTwoStep(db: Database, vault: Vault, userId: number, given: string, at: Date): Promise<TurnOff> {
  const user = await stateOf(db, userId)
  if (!user.totp_enabled_at) return { off: true }
  const locked = await signInLockSeconds(db, user.email)
  if (locked > 0) return { locked }
  const proved =
    (await checkSecondFactor(db, vault, 'reseller_users', userId, given, at)) ||
    (user.password_hash !== null && given.length > 0 && (await verifyPassword(given, user.password_hash)))
  if (!proved) {
    await countSignInFailureOf(db, user.email)
    return { wrong: true }
  }
  await resetSecondFactor(db, 'reseller_users', userId)
  return { off: true }
}

/**
 * An operator's reset for a lost phone (and no recovery code left): the second factor forgotten and
 * the user signed out everywhere, so the next sign-in is with the password alone and the owner may
 * turn it on again. A user without one is reset all the same (nothing to forget).
 */
export async function resetUserSecondFactor(db: Database, accountId: number, userId: number) {
  return inTransaction(db, async (trx) => {
    const user = await userOfAccount(trx, accountId, userId)
    if (!user) throw new AppError('USER_NOT_FOUND')
    await resetSecondFactor(trx, 'reseller_users', userId)
    // No session is kept: '' is no session's token hash.
    await deleteSessionsOfUserExcept(trx, userId, '')
    return { id: Number(user.id), email: user.email, second_factor: false as const }
  })
}
