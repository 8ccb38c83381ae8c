import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

/** The active operator a live token belongs to. */
export async function findTokenOperator(db: Database, tokenHash: string) {
  return db
    .selectFrom('operator_tokens as t')
    .innerJoin('operators as o', 'o.id', 't.operator_id')
    .select(['t.id as token_id', 't.last_used_at', 'o.id', 'o.email', 'o.name', 'o.role'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.revoked_at', 'is', null)
    .where('o.status', '=', 'active')
    .executeTakeFirst()
}

/** Last used, to the minute: a busy script does not write a row per call. */
export async function touchToken(db: Database, tokenId: number): Promise<void> {
  await db
    .updateTable('operator_tokens')
    .set({ last_used_at: sql`now()` })
    .where('id', '=', tokenId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', sql<Date>`now() - interval '1 minute'`)]))
    .execute()
}

const TOKEN_VIEW = ['id', 'operator_id', 'name', 'token_prefix', 'created_at', 'last_used_at', 'revoked_at'] as const

export function insertToken(db: Database, operatorId: number, name: string, tokenHash: string, prefix: string) {
  return db
    .insertInto('operator_tokens')
    .values({ operator_id: operatorId, name, token_hash: tokenHash, token_prefix: prefix })
    .returning(TOKEN_VIEW)
    .executeTakeFirstOrThrow()
}

/** An operator's tokens, live first, newest first. */
export function listTokenRows(db: Database, operatorId: number) {
  return db
    .selectFrom('operator_tokens')
    .select(TOKEN_VIEW)
    .where('operator_id', '=', operatorId)
    .orderBy(sql`revoked_at IS NOT NULL`)
    .orderBy('id', 'desc')
    .execute()
}

export function markTokenRevoked(db: Database, operatorId: number, tokenId: number) {
  return db
    .updateTable('operator_tokens')
    .set({ revoked_at: sql<Date>`now()` })
    .where('id', '=', tokenId)
    .where('operator_id', '=', operatorId)
    .where('revoked_at', 'is', null)
    .returning(TOKEN_VIEW)
    .executeTakeFirst()
}
