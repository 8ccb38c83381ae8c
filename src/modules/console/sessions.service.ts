import type { Database } from '../../db/database.js'
import { randomToken, sha256Hex } from '../../vault.js'
import { deleteExpiredSessions, deleteSession, insertSession, liveSessionExists } from './sessions.queries.js'

/**
 * Console sign-ins, kept in the database so that every process sees a sign-out or expiry at once;
 * the cookie holds a random token, the table only its SHA-256.
 */
export async function startSession(db: Database, hours: number): Promise<string> {
  const token = randomToken(32)
  await deleteExpiredSessions(db)
  await insertSession(db, sha256Hex(token), hours)
  return token
}

export async function isSessionLive(db: Database, token: string | undefined): Promise<boolean> {
  if (!token || token.length > 200) return false
  return liveSessionExists(db, sha256Hex(token))
}

export async function endSession(db: Database, token: string | undefined): Promise<void> {
  if (token) await deleteSession(db, sha256Hex(token))
}
