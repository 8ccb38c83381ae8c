import type { Actor } from '../../db/acting.js'
import type { Database } from '../../db/database.js'
import type { OperatorRole, SignInStage } from '../../db/schema.js'
import { ADMIN_TOKEN_ACTOR } from '../../http/auth.js'
import { randomToken, sha256Hex } from '../../vault.js'
import { deleteExpiredSessions, deleteSession, findLiveSession, insertSession, moveSession } from './sessions.queries.js'

export const SESSION_COOKIE = 'console_session'

/** A sign-in still waiting for its code or enrolment lasts this long: long enough to fetch a phone, no longer. */
export const PENDING_MINUTES = 20

/** A live console session: the admin token's (`operator` undefined) or an operator's, at its stage. */
export type ConsoleSession = {
  tokenHash: string
  stage: SignInStage
  /** lang: the console language the person last switched to (null: the browser's). */
  operator?: { id: number; email: string; name: string; role: OperatorRole; hasSecondFactor: boolean; lang: 'en' | 'id' | null }
}

/**
 * Console sign-ins, kept in the database so that every process sees a sign-out or expiry at once;
 * the cookie holds a random token, the table only its SHA-256. An operator's sign-in starts at the
 * stage its password leads to and lasts PENDING_MINUTES until it is signed in.
 */
export async function startSession(db: Database, hours: number, operatorId: number | null = null, stage: SignInStage = 'signed_in') {
  const token = randomToken(32)
  await deleteExpiredSessions(db)
  await insertSession(db, sha256Hex(token), stage === 'signed_in' ? hours * 60 : PENDING_MINUTES, operatorId, stage)
  return token
}

export async function consoleSession(db: Database, token: string | undefined): Promise<ConsoleSession | undefined> {
  if (!token || token.length > 200) return undefined
  const row = await findLiveSession(db, sha256Hex(token))
  if (!row) return undefined
  const { token_hash, stage, operator_id, email, name, role, totp_enabled_at, console_lang } = row
  if (operator_id === null) return { tokenHash: token_hash, stage }
  return {
    tokenHash: token_hash,
    stage,
    operator: {
      id: operator_id,
      email: email!,
      name: name!,
      role: role!,
      hasSecondFactor: totp_enabled_at !== null,
      lang: console_lang ?? null,
    },
  }
}

/** Who a session acts as: its operator with the role they have now, or the admin token as an owner. */
export function actorOf(session: ConsoleSession): Actor {
  const { operator } = session
  return operator ? { id: operator.id, name: operator.email, role: operator.role } : ADMIN_TOKEN_ACTOR
}

/** The step done: the session moves on (signed in for `hours`, or to enrolment); false when it had moved already. */
export function advanceSession(db: Database, session: ConsoleSession, from: SignInStage[], to: SignInStage, hours: number) {
  return moveSession(db, session.tokenHash, from, to, to === 'signed_in' ? hours * 60 : PENDING_MINUTES)
}

export async function endSession(db: Database, token: string | undefined): Promise<void> {
  if (token) await deleteSession(db, sha256Hex(token))
}
