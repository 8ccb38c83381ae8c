import type { Database } from '../../db/database.js'
import { randomToken, sha256Hex } from '../../vault.js'
import {
  deleteExpiredSessions,
  deleteSession,
  insertSession,
  moveSessionToUser,
  userOfLiveSession,
  usersOfSession,
} from './sessions.queries.js'
import type { Role } from './users.service.js'

/** How long a dashboard sign-in lasts: a working day. */
export const SESSION_HOURS = 12

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
 * every process at once; the cookie holds a random token, the table only its SHA-256.
 */
export async function startSession(db: Database, userIds: number[]): Promise<string> {
  const token = randomToken(32)
  await deleteExpiredSessions(db)
  await insertSession(db, sha256Hex(token), userIds, SESSION_HOURS)
  return token
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
