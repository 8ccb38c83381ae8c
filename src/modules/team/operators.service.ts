import type { Database, Trx } from '../../db/database.js'
import type { OperatorRole } from '../../db/schema.js'
import { AppError } from '../../errors.js'
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN } from '../../passwords.js'
import { randomToken, sha256Hex } from '../../vault.js'
import { resetSecondFactor } from './second-factor.service.js'
import {
  activateInvited,
  countActiveOwners,
  countOperators,
  endSignInsOf,
  findOperatorByInvite,
  findOperatorRow,
  insertActiveOperator,
  listOperatorRows,
  lockActiveOwners,
  markRemoved,
  revokeTokensOf,
  updateOperatorRow,
  upsertInvitation,
  setOperatorLanguage,
} from './operators.queries.js'

export type OperatorView = NonNullable<Awaited<ReturnType<typeof findOperatorView>>>

/** How long an invitation link lasts. */
export const INVITE_HOURS = 72

const normalEmail = (email: string) => email.trim().toLowerCase()

function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw new AppError('VALIDATION_ERROR', { fieldErrors: { password: [`must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`] } })
  }
}

// A name of spaces passes the schema's length but would show as nothing once trimmed.
function checkName(name: string | undefined): void {
  if (name !== undefined && name.trim() === '') throw new AppError('VALIDATION_ERROR', { fieldErrors: { name: ['must not be blank'] } })
}

export function listOperators(db: Database) {
  return listOperatorRows(db)
}

async function findOperatorView(db: Database, id: number) {
  const row = await findOperatorRow(db, id)
  if (!row) return undefined
  const { id: rowId, email, name, role, status, totp_enabled_at, invite_expires_at, created_at } = row
  return { id: rowId, email, name, role, status, totp_enabled_at, invite_expires_at, created_at }
}

export async function getOperator(db: Database, id: number): Promise<OperatorView> {
  const found = await findOperatorView(db, id)
  if (!found) throw new AppError('OPERATOR_NOT_FOUND')
  return found
}

/** Whether the store has any operator yet (the console then offers the first owner's form to the admin token). */
export async function hasOperators(db: Database): Promise<boolean> {
  return (await countOperators(db)) > 0
}

/**
 * Invites a person: a one-time link (INVITE_HOURS) to set a password and enrol a second factor.
 * An email already active is a DUPLICATE; one still invited or removed gets a fresh link.
 */
export async function inviteOperator(db: Database, input: { email: string; name: string; role: OperatorRole }) {
  checkName(input.name)
  const inviteToken = randomToken(32)
  const operator = await upsertInvitation(db, normalEmail(input.email), input.name.trim(), input.role, sha256Hex(inviteToken), INVITE_HOURS)
  if (!operator) throw new AppError('DUPLICATE', { fieldErrors: { email: ['is an active operator already'] } })
  return { operator, inviteToken }
}

/** The invitation a link names, if it is still open. */
export function findInvitation(db: Database, inviteToken: string) {
  if (inviteToken.length > 200) return Promise.resolve(undefined)
  return findOperatorByInvite(db, sha256Hex(inviteToken))
}

/** Accepts an invitation: the person's name and password; the second factor is enrolled at first sign-in. */
export async function acceptInvitation(db: Database, inviteToken: string, input: { name: string; password: string }) {
  checkPassword(input.password)
  const invited = await findInvitation(db, inviteToken)
  if (!invited) throw new AppError('INVITE_NOT_FOUND')
  const operator = await activateInvited(db, invited.id, input.name.trim() || invited.name, await hashPassword(input.password))
  if (!operator) throw new AppError('INVITE_NOT_FOUND')
  return operator
}

/** The first owner, from the console's first sign-in with the admin token; refused once any operator exists. */
export async function createFirstOwner(db: Database, input: { email: string; name: string; password: string }) {
  checkPassword(input.password)
  if (await hasOperators(db)) throw new AppError('INVALID_STATE', { fieldErrors: { email: ['the store has operators already: sign in'] } })
  const operator = await insertActiveOperator(db, normalEmail(input.email), input.name.trim(), 'owner', await hashPassword(input.password))
  if (!operator) throw new AppError('DUPLICATE', { fieldErrors: { email: ['is an operator already'] } })
  return operator
}

/** The last active owner stays one: someone must be able to run the team. Owners locked: two removals cannot both pass. */
async function keepAnOwner(trx: Trx, id: number, becoming: OperatorRole | 'removed'): Promise<void> {
  await lockActiveOwners(trx)
  const current = await findOperatorRow(trx, id)
  if (!current || current.status === 'removed') throw new AppError('OPERATOR_NOT_FOUND')
  if (current.role === 'owner' && current.status === 'active' && becoming !== 'owner' && (await countActiveOwners(trx)) <= 1) {
    throw new AppError('INVALID_STATE', { fieldErrors: { role: ['the last owner stays an owner: make another owner first'] } })
  }
}

/** A new name or role; a changed role signs the person out everywhere (their tokens take the new role at once). */
export async function updateOperator(db: Database, id: number, changes: { name?: string; role?: OperatorRole }) {
  checkName(changes.name)
  return db.transaction().execute(async (trx) => {
    if (changes.role !== undefined) await keepAnOwner(trx, id, changes.role)
    // Each column named: a body's unknown fields never reach the row (docs/design.md §3).
    const updated = await updateOperatorRow(trx, id, { name: changes.name?.trim(), role: changes.role })
    if (!updated) throw new AppError('OPERATOR_NOT_FOUND')
    return updated
  })
}

/** Removes a person: signed out everywhere, every token revoked, in one transaction. The row stays (the audit log names it). */
export async function removeOperator(db: Database, id: number) {
  return db.transaction().execute(async (trx) => {
    await keepAnOwner(trx, id, 'removed')
    const removed = await markRemoved(trx, id)
    if (!removed) throw new AppError('OPERATOR_NOT_FOUND')
    await revokeTokensOf(trx, id)
    return removed
  })
}

/** An owner's reset for a lost phone: the second factor forgotten, signed out everywhere; the next sign-in enrols again. */
export async function resetOperatorSecondFactor(db: Database, id: number) {
  return db.transaction().execute(async (trx) => {
    const found = await findOperatorRow(trx, id)
    if (!found || found.status === 'removed') throw new AppError('OPERATOR_NOT_FOUND')
    await resetSecondFactor(trx, 'operators', id)
    await endSignInsOf(trx, id)
    return getOperator(trx, id)
  })
}

/** The console's language an operator switched to: theirs on every browser from then on. */
export async function rememberConsoleLanguage(db: Database, operatorId: number, lang: 'en' | 'id'): Promise<void> {
  await setOperatorLanguage(db, operatorId, lang)
}
