import type { Database } from '../../db/database.js'
import type { SecondFactorColumns } from '../../db/schema.js'
import { AppError } from '../../errors.js'
import type { Vault } from '../../vault.js'
import {
  claimRecoveryCode,
  claimStep,
  clearSecondFactor,
  enableSecondFactor,
  findSecondFactor,
  storePendingSecret,
  type SecondFactorTable,
} from './second-factor.queries.js'
import { acceptedStep, newRecoveryCodes, newTotpSecret, otpauthUri, recoveryCodeHash, totpStep } from './totp.js'

export type { SecondFactorTable }

/** The roles that must sign in with a second factor (docs/design.md §11d). */
export const SECOND_FACTOR_ROLES = ['owner', 'admin', 'finance'] as const

/** Starts (or restarts) an enrolment: a fresh secret, sealed under APP_KEY, and the URI its QR code shows. */
export async function beginEnrolment(db: Database, vault: Vault, from: SecondFactorTable, id: number, issuer: string, account: string) {
  const secret = newTotpSecret()
  await storePendingSecret(db, from, id, vault.encrypt(secret))
  return { secret, uri: otpauthUri(issuer, account, secret) }
}

/**
 * The enrolment under way, rebuilt from its sealed secret (a reload shows the QR code already
 * scanned): the secret and its `otpauth://` URI; nothing when none is waiting for its first code.
 */
export function pendingEnrolment(
  vault: Vault,
  found: Pick<SecondFactorColumns, 'totp_secret_enc' | 'totp_enabled_at'>,
  issuer: string,
  account: string,
): { secret: string; uri: string } | undefined {
  if (!found.totp_secret_enc || found.totp_enabled_at) return undefined
  const secret = vault.decrypt(found.totp_secret_enc)
  return { secret, uri: otpauthUri(issuer, account, secret) }
}

/** A first code from the app confirms the enrolment; answers the ten recovery codes, shown once. */
export async function confirmEnrolment(db: Database, vault: Vault, from: SecondFactorTable, id: number, code: string, at: Date) {
  const found = await findSecondFactor(db, from, id)
  if (!found?.totp_secret_enc || found.totp_enabled_at) throw new AppError('INVALID_STATE')
  const step = acceptedStep(vault.decrypt(found.totp_secret_enc), code, at, null)
  if (step === null)
    throw new AppError('VALIDATION_ERROR', {
      fieldErrors: { code: ["is not the code the app shows now: check the phone's clock and try the next one"] },
    })
  const { codes, hashes } = newRecoveryCodes()
  if (!(await enableSecondFactor(db, from, id, step, hashes))) throw new AppError('INVALID_STATE')
  return { recoveryCodes: codes }
}

/** Whether the enrolment is done (a sign-in then asks for a code). */
export async function hasSecondFactor(db: Database, from: SecondFactorTable, id: number): Promise<boolean> {
  return Boolean((await findSecondFactor(db, from, id))?.totp_enabled_at)
}

/**
 * Checks a code typed at sign-in: the app's 6 digits (each step good once, ±1 step) or one of the
 * recovery codes (each good once). Claimed with a conditional update, so two sign-ins racing with
 * one code cannot both pass.
 */
export async function checkSecondFactor(db: Database, vault: Vault, from: SecondFactorTable, id: number, code: string, at: Date) {
  const found = await findSecondFactor(db, from, id)
  if (!found?.totp_secret_enc || !found.totp_enabled_at) return false
  const typed = code.trim()
  if (/^\d{6}$/.test(typed.replace(/\s/g, ''))) {
    const step = acceptedStep(vault.decrypt(found.totp_secret_enc), typed, at, found.totp_last_step)
    return step !== null && step <= totpStep(at) + 1 && (await claimStep(db, from, id, step))
  }
  if (typed.length > 40) return false
  return claimRecoveryCode(db, from, id, recoveryCodeHash(typed))
}

/** Forgets the second factor (an owner's reset for a lost phone); the next sign-in enrols again. */
export function resetSecondFactor(db: Database, from: SecondFactorTable, id: number) {
  return clearSecondFactor(db, from, id)
}
