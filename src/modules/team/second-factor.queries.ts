import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

/** Operators and dashboard users keep the same second-factor columns; one set of statements serves both. */
export type SecondFactorTable = 'operators' | 'reseller_users'
// Kysely types one table at a time: the columns used here are the same in both.
const table = (name: SecondFactorTable) => name as 'operators'

export function findSecondFactor(db: Database, from: SecondFactorTable, id: number) {
  return db
    .selectFrom(table(from))
    .select(['id', 'totp_secret_enc', 'totp_enabled_at', 'totp_last_step', 'recovery_code_hashes'])
    .where('id', '=', id)
    .executeTakeFirst()
}

/** A secret being enrolled: kept sealed, not yet required, until a first code confirms it. */
export async function storePendingSecret(db: Database, from: SecondFactorTable, id: number, sealed: string): Promise<void> {
  await db
    .updateTable(table(from))
    .set({ totp_secret_enc: sealed, totp_enabled_at: null, totp_last_step: null })
    .where('id', '=', id)
    .where('totp_enabled_at', 'is', null)
    .execute()
}

export async function enableSecondFactor(db: Database, from: SecondFactorTable, id: number, step: number, recoveryHashes: string[]) {
  const result = await db
    .updateTable(table(from))
    .set({ totp_enabled_at: sql<Date>`now()`, totp_last_step: step, recovery_code_hashes: recoveryHashes })
    .where('id', '=', id)
    .where('totp_enabled_at', 'is', null)
    .where('totp_secret_enc', 'is not', null)
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}

/** Records the step a code answered; false when that step or a later one was used already (a replay). */
export async function claimStep(db: Database, from: SecondFactorTable, id: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable(table(from))
    .set({ totp_last_step: step })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}

/** Uses up one recovery code; false when it is not (or no longer) one of them. */
export async function claimRecoveryCode(db: Database, from: SecondFactorTable, id: number, hash: string): Promise<boolean> {
  const result = await db
    .updateTable(table(from))
    .set({ recovery_code_hashes: sql<string[]>`array_remove(recovery_code_hashes, ${hash})` })
    .where('id', '=', id)
    .where(sql<boolean>`${hash} = ANY(recovery_code_hashes)`)
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}

export async function clearSecondFactor(db: Database, from: SecondFactorTable, id: number): Promise<void> {
  await db
    .updateTable(table(from))
    .set({ totp_secret_enc: null, totp_enabled_at: null, totp_last_step: null, recovery_code_hashes: [] })
    .where('id', '=', id)
    .execute()
}
