import type { Actor } from '../../db/acting.js'
import type { Database } from '../../db/database.js'
import { AppError } from '../../errors.js'
import { getOperator } from './operators.service.js'
import { createOperatorToken, listOperatorTokens, revokeOperatorToken } from './tokens.service.js'

/** Who the caller is: a person, or the admin token (or the CLI on the database) acting as an owner with no row. */
export async function whoAmI(db: Database, actor: Actor) {
  if (actor.id === null) return { id: null, email: null, name: actor.name, role: actor.role }
  const { id, email, name, role } = await getOperator(db, actor.id)
  return { id, email, name, role }
}

/** The person behind the caller; the admin token has no tokens of its own, so it is told how to get a person. */
function personOf(actor: Actor): number {
  if (actor.id !== null) return actor.id
  throw new AppError('INVALID_STATE', {
    fieldErrors: {
      Authorization: [
        `${actor.name} has no tokens of its own: invite yourself as an operator (POST /operators), accept the invitation, then create tokens as that person`,
      ],
    },
  })
}

export function myTokens(db: Database, actor: Actor) {
  return listOperatorTokens(db, personOf(actor))
}

export function createMyToken(db: Database, actor: Actor, name: string) {
  const id = personOf(actor)
  if (name.trim() === '') throw new AppError('VALIDATION_ERROR', { fieldErrors: { name: ['must not be blank'] } })
  return createOperatorToken(db, id, name)
}

export function revokeMyToken(db: Database, actor: Actor, tokenId: number) {
  return revokeOperatorToken(db, personOf(actor), tokenId)
}
