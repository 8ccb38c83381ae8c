import type { Database } from '../../db/database.js'
import { randomToken, sha256Hex } from '../../vault.js'
import {
  completeSession,
  deleteExpiredSessions,
  deleteSession,
  insertSession,
  moveSessionToUser,
  pendingSession,
  userOfLiveSession,
  usersOfSession,
} from './sessions.queries.js'
import { usersWithSecondFactor } from './two-step.queries.js'
import type { Role } from './users.service.js'

/** How long a dashboard sign-in lasts: a working day. */
export const SESSION_HOURS = 12
/** How long a sign-in past its password waits for the second factor before the password is asked again. */
export const SECOND_FACTOR_MINUTES = 10

export type DashboardUser = {
  user_id: number
  account_id: number
  email: string
  role: Role
  account_name: string
  account_status: 'active' | 'suspended'
  /** How many accounts the sign-in proved: more than one offers the account chooser. */
  accounts: number
}

/**
 * Dashboard sign-ins, kept in the database so that a sign-out, an expiry or a removed user is seen by
 * every process at once; the cookie holds a random token, the table only its SHA-256. When any user
 * the password proved has two-step verification on, the session waits at stage `second_factor`
 * (it opens only the code page) until `finishSecondFactor`.
 */
export async function startSession(db: Database, userIds: number[]): Promise<{ token: string; needsCode: boolean }> {
  const token = randomToken(32)
  await deleteExpiredSessions(db)
  const needsCode = (await usersWithSecondFactor(db, userIds)).length > 0
  if (needsCode) await insertSession(db, sha256Hex(token), userIds, 'second_factor', SECOND_FACTOR_MINUTES)
  else await insertSession(db, sha256Hex(token), userIds, 'signed_in', SESSION_HOURS * 60)
  return { token, needsCode }
}

/** The users a sign-in still waiting for its code proved with the password, or nothing. */
export async function pendingSignIn(db: Database, token: string | undefined): Promise<number[] | undefined> {
  if (!token || token.length > 200) return undefined
  return (await pendingSession(db, sha256Hex(token)))?.user_ids.map(Number)
}

/** The code was given: the session opens `userIds` (looking at `userId`) for SESSION_HOURS; false if it no longer waited. */
export function finishSecondFactor(db: Database, token: string, userIds: number[], userId: number): Promise<boolean> {
  return completeSession(db, sha256Hex(token), userIds, userId, SESSION_HOURS * 60)
}

export async function sessionUser(db: Database, token: string | undefined): Promise<DashboardUser | undefined> {
  if (!token || token.length > 200) return undefined
  return userOfLiveSession(db, sha256Hex(token))
}

export async function endSession(db: Database, token: string | undefined): Promise<void> {
  if (token) await deleteSession(db, sha256Hex(token))
}

/** The accounts the session's sign-in proved (the chooser's list), the current one among them. */
export async function sessionAccounts(db: Database, token: string | undefined) {
  return usersOfSession(db, sha256Hex(token ?? ''))
}

/** Moves the session to another user its sign-in proved; false for any other (another account's is a 404). */
export async function switchAccount(db: Database, token: string | undefined, userId: number): Promise<boolean> {
  return moveSessionToUser(db, sha256Hex(token ?? ''), userId)
}
