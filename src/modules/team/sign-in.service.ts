import type { Database } from '../../db/database.js'
import { AppError } from '../../errors.js'
import type { OperatorRole, SignInStage } from '../../db/schema.js'
import { matchingHashes } from '../../passwords.js'
import { sha256Hex, type Vault } from '../../vault.js'
import { findSecondFactor } from './second-factor.queries.js'
import { beginEnrolment, checkSecondFactor, pendingEnrolment, SECOND_FACTOR_ROLES } from './second-factor.service.js'
import { countFailedSignIn, forgetFailedSignIns, OPERATOR_SIGN_IN_FAILURES, signInLockSeconds } from './sign-in-lock.service.js'
import { findSignInOperator } from './sign-in.queries.js'

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

/**
 * Email and password to the operator they prove. The same work and the same outcome for an email
 * nobody has (one scrypt, a decoy's, and a count and lock kept per email typed and address), so
 * neither the answer nor its timing tells which emails are operators'. Past
 * SIGN_IN_FAILURES_BEFORE_LOCK failures the pair is locked for SIGN_IN_LOCK_MINUTES, whatever the password.
 */
export async function checkOperatorPassword(db: Database, emailText: string, password: string, clientIp: string): Promise<PasswordCheck> {
  const keyHash = failureKey(emailText, clientIp)
  const found = await findSignInOperator(db, normalEmail(emailText))
  const locked = await signInLockSeconds(db, OPERATOR_SIGN_IN_FAILURES, keyHash)
  // Checked before the lock is, so a locked email costs what any other does.
  const matched = await matchingHashes(password, found ? [found as typeof found & { password_hash: string }] : [])
  if (locked > 0) return { locked }
  if (found && matched.length === 1) {
    // With a code still to come the count stays: a right password must not wipe the wrong codes guessed after it.
    if (found.totp_enabled_at === null) await forgetFailedSignIns(db, OPERATOR_SIGN_IN_FAILURES, keyHash)
    const { id, email, name, role, totp_enabled_at } = found
    return { operator: { id, email, name, role, hasSecondFactor: totp_enabled_at !== null } }
  }
  await countFailedSignIn(db, OPERATOR_SIGN_IN_FAILURES, keyHash)
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
  const locked = await signInLockSeconds(db, OPERATOR_SIGN_IN_FAILURES, keyHash)
  if (locked > 0) return { locked }
  if (code.length <= 100 && (await checkSecondFactor(db, vault, 'operators', operator.id, code, at))) {
    await forgetFailedSignIns(db, OPERATOR_SIGN_IN_FAILURES, keyHash)
    return 'ok'
  }
  await countFailedSignIn(db, OPERATOR_SIGN_IN_FAILURES, keyHash)
  return undefined
}

/**
 * The enrolment an operator's page shows: the secret still waiting for its first code (a reload
 * shows the QR code already scanned), else a fresh one. Refused once enrolled: a reset comes first.
 */
export async function enrolmentFor(db: Database, vault: Vault, operatorId: number, issuer: string, account: string) {
  const found = await findSecondFactor(db, 'operators', operatorId)
  if (found?.totp_enabled_at) throw new AppError('INVALID_STATE', { fieldErrors: { code: ['a second factor is enrolled already'] } })
  return (found && pendingEnrolment(vault, found, issuer, account)) ?? beginEnrolment(db, vault, 'operators', operatorId, issuer, account)
}
