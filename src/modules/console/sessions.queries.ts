import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

export async function deleteExpiredSessions(db: Database): Promise<void> {
  await db
    .deleteFrom('console_sessions')
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute()
}

/** A console session lasting `hours`. */
export async function insertSession(db: Database, tokenHash: string, hours: number): Promise<void> {
  await db
    .insertInto('console_sessions')
    .values({ token_hash: tokenHash, expires_at: sql<Date>`now() + make_interval(hours => ${hours})` })
    .execute()
}

/** Whether a session of this token hash is live. */
export async function liveSessionExists(db: Database, tokenHash: string): Promise<boolean> {
  const row = await db
    .selectFrom('console_sessions')
    .select('token_hash')
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst()
  return row !== undefined
}

export async function deleteSession(db: Database, tokenHash: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('token_hash', '=', tokenHash).execute()
}
