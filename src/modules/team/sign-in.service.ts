import type { Database } from '../../db/database.js'
import { AppError } from '../../errors.js'
import type { OperatorRole, SignInStage } from '../../db/schema.js'
import { matchingHashes } from '../../passwords.js'
import { sha256Hex, type Vault } from '../../vault.js'
import { findSecondFactor } from './second-factor.queries.js'
import { beginEnrolment, checkSecondFactor, SECOND_FACTOR_ROLES } from './second-factor.service.js'
import { countSignInFailure, deleteStaleSignInFailures, findSignInOperator, forgetSignInFailures, signInLockOf } from './sign-in.queries.js'
import { otpauthUri } from './totp.js'

// The dashboard's numbers (dashboard/sign-in.service.ts), per (email typed, address) on top of the
// per-address limit: a guesser elsewhere spends their own count and never locks the right person out.
export const SIGN_IN_FAILURES_BEFORE_LOCK = 10
export const SIGN_IN_LOCK_MINUTES = 15
// A day without failures forgets a key's count; rows of emails nobody has are not kept for ever.
const FORGET_AFTER_HOURS = 24

/** Who a right password proved: what the console's session needs, never a secret. */
export type SignInOperator = { id: number; email: string; name: string; role: OperatorRole; hasSecondFactor: boolean }
/** The operator a password proved, the lock's seconds left, or nothing (a wrong password and an unknown email alike). */
export type PasswordCheck = { operator: SignInOperator } | { locked: number } | undefined

const normalEmail = (email: string) => email.trim().toLowerCase()
const failureKey = (email: string, clientIp: string) => sha256Hex(`${normalEmail(email)}|${clientIp}`)

export function requiresSecondFactor(role: OperatorRole): boolean {
  return (SECOND_FACTOR_ROLES as readonly OperatorRole[]).includes(role)
}

/** Where a sign-in goes once the password is right: the code, the enrolment its role requires, or in. */
export function stageAfterPassword(operator: Pick<SignInOperator, 'role' | 'hasSecondFactor'>): SignInStage {
  if (operator.hasSecondFactor) return 'second_factor'
  return requiresSecondFactor(operator.role) ? 'enrol' : 'signed_in'
}

async function countFailure(db: Database, keyHash: string): Promise<void> {
  await countSignInFailure(db, keyHash, SIGN_IN_FAILURES_BEFORE_LOCK, SIGN_IN_LOCK_MINUTES)
  await deleteStaleSignInFailures(db, FORGET_AFTER_HOURS)
}

/**
 * Email and password to the operator they prove. The same work and the same outcome for an email
 * nobody has (one scrypt, a decoy's, and a count and lock kept per email typed and address), so
 * neither the answer nor its timing tells which emails are operators'. Past
 * SIGN_IN_FAILURES_BEFORE_LOCK failures the pair is locked for SIGN_IN_LOCK_MINUTES, whatever the password.
 */
export async function checkOperatorPassword(db: Database, emailText: string, password: string, clientIp: string): Promise<PasswordCheck> {
  const keyHash = failureKey(emailText, clientIp)
  const found = await findSignInOperator(db, normalEmail(emailText))
  const lock = await signInLockOf(db, keyHash)
  // Checked before the lock is, so a locked email costs what any other does.
  const matched = await matchingHashes(password, found ? [found as typeof found & { password_hash: string }] : [])
  if (lock && lock.seconds > 0) return { locked: lock.seconds }
  if (found && matched.length === 1) {
    // With a code still to come the count stays: a right password must not wipe the wrong codes guessed after it.
    if (found.totp_enabled_at === null) await forgetSignInFailures(db, keyHash)
    const { id, email, name, role, totp_enabled_at } = found
    return { operator: { id, email, name, role, hasSecondFactor: totp_enabled_at !== null } }
  }
  await countFailure(db, keyHash)
  return undefined
}

/**
 * The second step: the app's code or a recovery code (each good once: a replayed code is refused).
 * A wrong code counts like a wrong password, on the same (email, address) key, and a locked key
 * refuses even a right code without using it up.
 */
export async function checkOperatorCode(
  db: Database,
  vault: Vault,
  operator: { id: number; email: string },
  clientIp: string,
  code: string,
  at: Date,
): Promise<'ok' | { locked: number } | undefined> {
  const keyHash = failureKey(operator.email, clientIp)
  const lock = await signInLockOf(db, keyHash)
  if (lock && lock.seconds > 0) return { locked: lock.seconds }
  if (code.length <= 100 && (await checkSecondFactor(db, vault, 'operators', operator.id, code, at))) {
    await forgetSignInFailures(db, keyHash)
    return 'ok'
  }
  await countFailure(db, keyHash)
  return undefined
}

/**
 * The enrolment an operator's page shows: the secret still waiting for its first code (a reload
 * shows the QR code already scanned), else a fresh one. Refused once enrolled: a reset comes first.
 */
export async function enrolmentFor(db: Database, vault: Vault, operatorId: number, issuer: string, account: string) {
  const found = await findSecondFactor(db, 'operators', operatorId)
  if (found?.totp_enabled_at) throw new AppError('INVALID_STATE', { fieldErrors: { code: ['a second factor is enrolled already'] } })
  if (found?.totp_secret_enc && !found.totp_enabled_at) {
    const secret = vault.decrypt(found.totp_secret_enc)
    return { secret, uri: otpauthUri(issuer, account, secret) }
  }
  return beginEnrolment(db, vault, 'operators', operatorId, issuer, account)
}
