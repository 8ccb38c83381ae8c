import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import type { SignInStage } from '../../db/schema.js'

export async function deleteExpiredSessions(db: Database): Promise<void> {
  await db
    .deleteFrom('console_sessions')
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute()
}

/** A console session lasting `minutes`: the admin token's (no operator), or an operator's at `stage`. */
export async function insertSession(db: Database, tokenHash: string, minutes: number, operatorId: number | null, stage: SignInStage) {
  await db
    .insertInto('console_sessions')
    .values({ token_hash: tokenHash, expires_at: sql<Date>`now() + make_interval(mins => ${minutes})`, operator_id: operatorId, stage })
    .execute()
}

/**
 * The live session of this token hash, with its operator's name and role now. An operator's
 * session lives only while the operator is active and it began at or after sessions_valid_from:
 * a role change, a removal or a reset second factor ends it in every process at once.
 */
export function findLiveSession(db: Database, tokenHash: string) {
  return db
    .selectFrom('console_sessions as s')
    .leftJoin('operators as o', 'o.id', 's.operator_id')
    .select(['s.token_hash', 's.stage', 's.operator_id', 'o.email', 'o.name', 'o.role', 'o.totp_enabled_at', 'o.console_lang'])
    .where('s.token_hash', '=', tokenHash)
    .where('s.expires_at', '>', sql<Date>`now()`)
    .where((eb) =>
      eb.or([
        eb('s.operator_id', 'is', null),
        eb.and([eb('o.status', '=', 'active'), eb('s.created_at', '>=', eb.ref('o.sessions_valid_from'))]),
      ]),
    )
    .executeTakeFirst()
}

/** Moves a session on from one of `from` to `to`, lasting `minutes` from now; false when it was not at any of them. */
export async function moveSession(db: Database, tokenHash: string, from: SignInStage[], to: SignInStage, minutes: number) {
  const result = await db
    .updateTable('console_sessions')
    .set({ stage: to, expires_at: sql<Date>`now() + make_interval(mins => ${minutes})` })
    .where('token_hash', '=', tokenHash)
    .where('stage', 'in', from)
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}

export async function deleteSession(db: Database, tokenHash: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('token_hash', '=', tokenHash).execute()
}
