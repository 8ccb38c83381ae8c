import type { Database } from '../../db/database.js'
import {
  countSignInFailure,
  deleteStaleSignInFailures,
  forgetSignInFailures,
  signInLockOf,
  type SignInFailures,
} from './sign-in-lock.queries.js'

export type { SignInFailures }

// The console's and the dashboard's lock (docs/design.md §11d, §13), per key on top of the per-address
// limit: a guesser elsewhere spends their own count and never locks the right person out.
export const SIGN_IN_FAILURES_BEFORE_LOCK = 10
export const SIGN_IN_LOCK_MINUTES = 15
// A day without failures forgets a key's count; rows of emails nobody has are not kept for ever.
const FORGET_AFTER_HOURS = 24

/** The console's failures, per (email typed, client address). */
export const OPERATOR_SIGN_IN_FAILURES: SignInFailures = { table: 'operator_sign_in_failures', key: 'key_hash' }
/** The dashboard's failures, per email typed. */
export const RESELLER_SIGN_IN_FAILURES: SignInFailures = { table: 'reseller_sign_in_failures', key: 'email_hash' }

/** The seconds left of the key's sign-in lock, 0 when it has none (or it ended). */
export async function signInLockSeconds(db: Database, failures: SignInFailures, keyHash: string): Promise<number> {
  const lock = await signInLockOf(db, failures, keyHash)
  return lock && lock.seconds > 0 ? lock.seconds : 0
}

/** One more failure of the key (the SIGN_IN_FAILURES_BEFORE_LOCK-th locks it for SIGN_IN_LOCK_MINUTES); stale rows pruned. */
export async function countFailedSignIn(db: Database, failures: SignInFailures, keyHash: string): Promise<void> {
  await countSignInFailure(db, failures, keyHash, SIGN_IN_FAILURES_BEFORE_LOCK, SIGN_IN_LOCK_MINUTES)
  await deleteStaleSignInFailures(db, failures, FORGET_AFTER_HOURS)
}

/** A right password or code: the key's count starts again. */
export function forgetFailedSignIns(db: Database, failures: SignInFailures, keyHash: string): Promise<void> {
  return forgetSignInFailures(db, failures, keyHash)
}
