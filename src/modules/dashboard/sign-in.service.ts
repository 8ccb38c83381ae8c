import type { Database } from '../../db/database.js'
import type { Vault } from '../../vault.js'
import { sha256Hex } from '../../vault.js'
import { matchingHashes } from '../../passwords.js'
import {
  checkSecondFactor,
  countFailedSignIn,
  forgetFailedSignIns,
  RESELLER_SIGN_IN_FAILURES,
  signInLockSeconds as lockSecondsOf,
} from '../team/index.js'
import { finishSecondFactor, pendingSignIn } from './sessions.service.js'
import { emailOfUser, usersWithPasswordOfEmail } from './sign-in.queries.js'
import { usersWithSecondFactor } from './two-step.queries.js'

// Failures count per email typed (team's sign-in lock, the console's numbers), on top of the
// per-address limit: guesses spread over many addresses still stop.

/** The email's users whose password matched (several: the person chooses the account), the lock's seconds left, or nothing. */
export type SignInResult = { userIds: number[] } | { locked: number } | undefined

/**
 * Email and password to the users they prove. The same work and the same outcome for an email nobody
 * has: one scrypt (a decoy's), and a failure count and lock kept per email typed, so that neither the
 * answer nor the lock tells which emails exist. Past SIGN_IN_FAILURES_BEFORE_LOCK failures the email is
 * locked for SIGN_IN_LOCK_MINUTES, whatever the password.
 */
export async function checkSignIn(db: Database, emailText: string, password: string): Promise<SignInResult> {
  const email = emailText.trim().toLowerCase()
  const emailHash = sha256Hex(email)
  const users = await usersWithPasswordOfEmail(db, email)
  const locked = await lockSecondsOf(db, RESELLER_SIGN_IN_FAILURES, emailHash)
  // Checked before the lock is, so a locked email costs what any other does.
  const matched = await matchingHashes(password, users as Array<{ id: number; password_hash: string }>)
  if (locked > 0) return { locked }
  if (matched.length > 0) {
    const userIds = matched.map((u) => u.id)
    // With a code still to come the count stays: a right password must not wipe the wrong codes guessed after it.
    if ((await usersWithSecondFactor(db, userIds)).length === 0) await forgetFailedSignIns(db, RESELLER_SIGN_IN_FAILURES, emailHash)
    return { userIds }
  }
  await countFailedSignIn(db, RESELLER_SIGN_IN_FAILURES, emailHash)
  return undefined
}

/** What a code typed at sign-in did: opened these users (the session now looks at `userId`), the lock's seconds left, or nothing. */
export type CodeResult = { userIds: number[]; userId: number } | { locked: number } | { wrong: true }

/**
 * The second step of a sign-in whose password proved a user with two-step verification on: a code
 * of the app (each once, ±1 step) or a recovery code (once), checked against each such user.
 *
 * Several accounts (docs/design.md §13): the session goes on with the users the password proved
 * that have no second factor, plus those whose second factor this code satisfied; one with two-step
 * verification whose code was not given is left out, so the session can never switch to it (a new
 * sign-in with its code opens it). A wrong code is a failed sign-in of the email: it counts toward
 * the same lock as a wrong password, and a locked email is refused whatever the code.
 * Undefined when the session is not waiting for a code (none, lapsed, or finished in another tab).
 */
export async function checkSignInCode(
  db: Database,
  vault: Vault,
  token: string | undefined,
  code: string,
  at: Date,
): Promise<CodeResult | undefined> {
  const proved = await pendingSignIn(db, token)
  if (!proved) return undefined
  const guarded = await usersWithSecondFactor(db, proved)
  // The second factors were all reset (or the users removed) since the password: sign in again.
  const email = guarded.length > 0 ? await emailOfUser(db, guarded[0]!) : undefined
  if (!email) return undefined
  const emailHash = sha256Hex(email)
  const locked = await lockSecondsOf(db, RESELLER_SIGN_IN_FAILURES, emailHash)
  if (locked > 0) return { locked }
  const satisfied: number[] = []
  for (const id of guarded) if (await checkSecondFactor(db, vault, 'reseller_users', id, code, at)) satisfied.push(id)
  if (satisfied.length === 0) {
    await countFailedSignIn(db, RESELLER_SIGN_IN_FAILURES, emailHash)
    return { wrong: true }
  }
  await forgetFailedSignIns(db, RESELLER_SIGN_IN_FAILURES, emailHash)
  const userIds = proved.filter((id) => !guarded.includes(id) || satisfied.includes(id))
  if (!(await finishSecondFactor(db, token!, userIds, satisfied[0]!))) return undefined
  return { userIds, userId: satisfied[0]! }
}

/** The email's sign-in lock, in seconds left (0 when there is none): refuses a code as it refuses a password. */
export function signInLockSeconds(db: Database, email: string): Promise<number> {
  return lockSecondsOf(db, RESELLER_SIGN_IN_FAILURES, sha256Hex(email))
}

/** A wrong code or password given while signed in (turning two-step verification off): one more failure of the email. */
export function countSignInFailureOf(db: Database, email: string): Promise<void> {
  return countFailedSignIn(db, RESELLER_SIGN_IN_FAILURES, sha256Hex(email))
}
