import type { Actor } from '../../db/acting.js'
import type { Database } from '../../db/database.js'
import { randomToken, sha256Hex } from '../../vault.js'
import { AppError } from '../../errors.js'
import { getOperator } from './operators.service.js'
import { findTokenOperator, insertToken, listTokenRows, markTokenRevoked, touchToken } from './tokens.queries.js'

/** Per-person admin API tokens start with this, so they are told apart from ADMIN_TOKEN at a glance. */
export const OPERATOR_TOKEN_PREFIX = 'op_'

/** A new token: shown once to its owner; the table keeps its SHA-256 and its first characters. */
export function newOperatorToken(): { token: string; hash: string; prefix: string } {
  const token = `${OPERATOR_TOKEN_PREFIX}${randomToken(32)}`
  return { token, hash: sha256Hex(token), prefix: token.slice(0, 10) }
}

/**
 * The actor an `op_` token acts as: its operator with the operator's role now (a changed role
 * applies at the next call; a removed operator or revoked token is refused at once).
 */
export async function actorForToken(db: Database, token: string): Promise<Actor | undefined> {
  if (!token.startsWith(OPERATOR_TOKEN_PREFIX) || token.length > 200) return undefined
  const found = await findTokenOperator(db, sha256Hex(token))
  if (!found) return undefined
  const staleSince = Date.now() - 60_000
  if (found.last_used_at === null || found.last_used_at.getTime() < staleSince) await touchToken(db, found.token_id)
  return { id: found.id, name: found.email, role: found.role }
}

/** A new token for an operator; `token` is shown once and never stored. */
export async function createOperatorToken(db: Database, operatorId: number, name: string) {
  const { token, hash, prefix } = newOperatorToken()
  const row = await insertToken(db, operatorId, name.trim() || 'token', hash, prefix)
  return { ...row, token }
}

export function listOperatorTokens(db: Database, operatorId: number) {
  return listTokenRows(db, operatorId)
}

/** Revokes one of an operator's tokens: refused at its next use. */
export async function revokeOperatorToken(db: Database, operatorId: number, tokenId: number) {
  const revoked = await markTokenRevoked(db, operatorId, tokenId)
  if (!revoked) throw new AppError('TOKEN_NOT_FOUND')
  return revoked
}

/** An operator's tokens as an owner or admin sees them (OPERATOR_NOT_FOUND for nobody's). */
export async function tokensOfOperator(db: Database, operatorId: number) {
  await getOperator(db, operatorId)
  return listTokenRows(db, operatorId)
}

/** An owner revokes someone's token (a lost laptop): OPERATOR_NOT_FOUND, then TOKEN_NOT_FOUND, say which is wrong. */
export async function revokeTokenOfOperator(db: Database, operatorId: number, tokenId: number) {
  await getOperator(db, operatorId)
  return revokeOperatorToken(db, operatorId, tokenId)
}
