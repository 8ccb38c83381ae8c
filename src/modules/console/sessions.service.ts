import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import { randomToken, sha256Hex } from '../../vault.js'

/**
 * Console sign-ins, kept in the database so that every process sees a sign-out or expiry at once;
 * the cookie holds a random token, the table only its SHA-256.
 */
export async function startSession(db: Database, hours: number): Promise<string> {
  const token = randomToken(32)
  await db
    .deleteFrom('console_sessions')
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute()
  await db
    .insertInto('console_sessions')
    .values({ token_hash: sha256Hex(token), expires_at: sql<Date>`now() + make_interval(hours => ${hours})` })
    .execute()
  return token
}

export async function isSessionLive(db: Database, token: string | undefined): Promise<boolean> {
  if (!token || token.length > 200) return false
  const row = await db
    .selectFrom('console_sessions')
    .select('token_hash')
    .where('token_hash', '=', sha256Hex(token))
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst()
  return row !== undefined
}

export async function endSession(db: Database, token: string | undefined): Promise<void> {
  if (token) await db.deleteFrom('console_sessions').where('token_hash', '=', sha256Hex(token)).execute()
}
