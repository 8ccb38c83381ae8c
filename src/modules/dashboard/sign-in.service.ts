import type { Database } from '../../db/database.js'
import { sha256Hex } from '../../vault.js'
import { matchingHashes } from '../../passwords.js'
import {
  countSignInFailure,
  deleteStaleSignInFailures,
  forgetSignInFailures,
  signInLockOf,
  usersWithPasswordOfEmail,
} from './sign-in.queries.js'

// Per email typed, on top of the per-address limit: guesses spread over many addresses still stop.
const FAILURES_BEFORE_LOCK = 10
export const LOCK_MINUTES = 15
// A day without failures forgets an email's count; rows of emails nobody has are not kept for ever.
const FORGET_AFTER_HOURS = 24

/** The email's users whose password matched (several: the person chooses the account), the lock's seconds left, or nothing. */
export type SignInResult = { userIds: number[] } | { locked: number } | undefined

/**
 * Email and password to the users they prove. The same work and the same outcome for an email nobody
 * has: one scrypt (a decoy's), and a failure count and lock kept per email typed, so that neither the
 * answer nor the lock tells which emails exist. Past FAILURES_BEFORE_LOCK failures the email is locked
 * for LOCK_MINUTES, whatever the password.
 */
export async function checkSignIn(db: Database, emailText: string, password: string): Promise<SignInResult> {
  const email = emailText.trim().toLowerCase()
  const emailHash = sha256Hex(email)
  const users = await usersWithPasswordOfEmail(db, email)
  const lock = await signInLockOf(db, emailHash)
  // Checked before the lock is, so a locked email costs what any other does.
  const matched = await matchingHashes(password, users as Array<{ id: number; password_hash: string }>)
  if (lock && lock.seconds > 0) return { locked: lock.seconds }
  if (matched.length > 0) {
    await forgetSignInFailures(db, emailHash)
    return { userIds: matched.map((u) => u.id) }
  }
  await countFailure(db, emailHash)
  return undefined
}

async function countFailure(db: Database, emailHash: string): Promise<void> {
  await countSignInFailure(db, emailHash, FAILURES_BEFORE_LOCK, LOCK_MINUTES)
  await deleteStaleSignInFailures(db, FORGET_AFTER_HOURS)
}
