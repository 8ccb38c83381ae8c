import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import type { OperatorRole } from '../../db/schema.js'

/** What lists and pages show of an operator: never a secret. */
export const OPERATOR_VIEW = ['id', 'email', 'name', 'role', 'status', 'totp_enabled_at', 'invite_expires_at', 'created_at'] as const

export function listOperatorRows(db: Database) {
  return db.selectFrom('operators').select(OPERATOR_VIEW).orderBy('status').orderBy('id').execute()
}

export function findOperatorRow(db: Database, id: number) {
  return db.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findOperatorByEmail(db: Database, email: string) {
  return db.selectFrom('operators').selectAll().where('email', '=', email).executeTakeFirst()
}

export function findOperatorByInvite(db: Database, inviteHash: string) {
  return db
    .selectFrom('operators')
    .selectAll()
    .where('invite_hash', '=', inviteHash)
    .where('status', '=', 'invited')
    .where('invite_expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst()
}

export async function countActiveOwners(db: Database): Promise<number> {
  const row = await db
    .selectFrom('operators')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'owner')
    .where('status', '=', 'active')
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** In id order: two transactions locking the owners take them in the same order, so they queue instead of deadlocking. */
export async function lockActiveOwners(db: Database): Promise<void> {
  await db
    .selectFrom('operators')
    .select('id')
    .where('role', '=', 'owner')
    .where('status', '=', 'active')
    .orderBy('id')
    .forUpdate()
    .execute()
}

export async function countOperators(db: Database): Promise<number> {
  const row = await db
    .selectFrom('operators')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '<>', 'removed')
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** A new invitation, or a fresh one for an email still invited (a removed person is invited anew). */
export function upsertInvitation(db: Database, email: string, name: string, role: OperatorRole, inviteHash: string, hours: number) {
  return db
    .insertInto('operators')
    .values({
      email,
      name,
      role,
      status: 'invited',
      invite_hash: inviteHash,
      invite_expires_at: sql<Date>`now() + make_interval(hours => ${hours})`,
      updated_at: sql<Date>`now()`,
    })
    .onConflict((oc) =>
      oc
        .column('email')
        .doUpdateSet({
          name,
          role,
          status: 'invited',
          invite_hash: inviteHash,
          invite_expires_at: sql<Date>`now() + make_interval(hours => ${hours})`,
          password_hash: null,
          totp_secret_enc: null,
          totp_enabled_at: null,
          totp_last_step: null,
          recovery_code_hashes: [],
          sessions_valid_from: sql<Date>`now()`,
          updated_at: sql<Date>`now()`,
        })
        .where('operators.status', '<>', 'active'),
    )
    .returning(OPERATOR_VIEW)
    .executeTakeFirst()
}

/** The first owner, made at the console's first sign-in with the admin token: active at once. */
export function insertActiveOperator(db: Database, email: string, name: string, role: OperatorRole, passwordHash: string) {
  return db
    .insertInto('operators')
    .values({ email, name, role, status: 'active', password_hash: passwordHash, updated_at: sql<Date>`now()` })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning(OPERATOR_VIEW)
    .executeTakeFirst()
}

export function activateInvited(db: Database, id: number, name: string, passwordHash: string) {
  return db
    .updateTable('operators')
    .set({ status: 'active', name, password_hash: passwordHash, invite_hash: null, invite_expires_at: null, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', '=', 'invited')
    .returning(OPERATOR_VIEW)
    .executeTakeFirst()
}

/** Name and role; a changed role ends the operator's sign-ins everywhere. */
export function updateOperatorRow(db: Database, id: number, changes: { name?: string; role?: OperatorRole }) {
  return db
    .updateTable('operators')
    .set({
      ...changes,
      ...(changes.role !== undefined && {
        sessions_valid_from: sql<Date>`CASE WHEN role IS DISTINCT FROM ${changes.role} THEN now() ELSE sessions_valid_from END`,
      }),
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('status', '<>', 'removed')
    .returning(OPERATOR_VIEW)
    .executeTakeFirst()
}

export function markRemoved(db: Database, id: number) {
  return db
    .updateTable('operators')
    .set({
      status: 'removed',
      invite_hash: null,
      invite_expires_at: null,
      sessions_valid_from: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('status', '<>', 'removed')
    .returning(OPERATOR_VIEW)
    .executeTakeFirst()
}

export async function revokeTokensOf(db: Database, operatorId: number): Promise<void> {
  await db
    .updateTable('operator_tokens')
    .set({ revoked_at: sql<Date>`now()` })
    .where('operator_id', '=', operatorId)
    .where('revoked_at', 'is', null)
    .execute()
}

export function setPasswordHash(db: Database, id: number, passwordHash: string) {
  return db
    .updateTable('operators')
    .set({ password_hash: passwordHash, sessions_valid_from: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute()
}

/** Every sign-in of the operator started before now is over (console sessions compare sessions_valid_from). */
export async function endSignInsOf(db: Database, id: number): Promise<void> {
  await db
    .updateTable('operators')
    .set({ sessions_valid_from: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute()
}

/** The console's language an operator switched to (every browser they sign in from follows it). */
export async function setOperatorLanguage(db: Database, operatorId: number, lang: 'en' | 'id'): Promise<void> {
  await db.updateTable('operators').set({ console_lang: lang }).where('id', '=', operatorId).execute()
}
