import { inTransaction, type Database, type Trx } from '../../db/database.js'
import { AppError, invalidField } from '../../errors.js'
import { isAddressOrCidr } from '../../ip-ranges.js'
import { randomToken, sha256Hex } from '../../vault.js'
import { postLedgerEntry } from '../ledger/index.js'
import { setAccountLevelWithin } from '../price-levels/index.js'
import { announceAccountChange } from './account-changes.js'
import {
  findAccount,
  insertAccount,
  insertApiKey,
  ledgerEntryByReference,
  lockAccountRow,
  revokeApiKeysOf,
  updateAccountColumns,
  type AccountColumns,
} from './accounts.queries.js'

/** `rk_` + 32 random bytes; only the SHA-256 is kept, so the key is shown once. */
async function issueApiKey(trx: Trx, accountId: number): Promise<string> {
  const apiKey = `rk_${randomToken(32)}`
  await insertApiKey(trx, accountId, sha256Hex(apiKey), apiKey.slice(0, 8))
  return apiKey
}

export async function createAccount(db: Database, input: { name: string; email?: string }) {
  return inTransaction(db, (trx) => createAccountWithin(trx, input))
}

/** createAccount inside the caller's transaction (the demo seed runs in one). */
export async function createAccountWithin(trx: Trx, input: { name: string; email?: string }) {
  const account = await insertAccount(trx, { name: input.name, email: input.email ?? null })
  const apiKey = await issueApiKey(trx, account.id)
  return { ...(await findAccount(trx, account.id))!, api_key: apiKey }
}

async function lockAccount(trx: Trx, accountId: number) {
  const account = await lockAccountRow(trx, accountId)
  if (!account) throw new AppError('ACCOUNT_NOT_FOUND')
  return account
}

/** Revokes every key of the account and issues a new one, atomically. */
export async function rotateApiKey(db: Database, accountId: number) {
  return inTransaction(db, async (trx) => {
    await lockAccount(trx, accountId)
    await revokeApiKeysOf(trx, accountId)
    await announceAccountChange(trx, accountId)
    return { id: accountId, api_key: await issueApiKey(trx, accountId) }
  })
}

/** price_level: a level's code (docs/design.md §5d). */
export type AccountChanges = AccountColumns & { price_level?: string }

/** Only the columns named here can change; a balance moves only through the ledger. */
export async function updateAccount(db: Database, accountId: number, changes: AccountChanges) {
  const { name, email, status, max_active_locks, ip_allowlist, price_level } = changes
  ip_allowlist?.forEach((entry, i) => {
    if (!isAddressOrCidr(entry)) throw invalidField(`ip_allowlist.${i}`, 'must be an IP address or CIDR')
  })
  if ([name, email, status, max_active_locks, ip_allowlist, price_level].every((v) => v === undefined)) {
    const account = await findAccount(db, accountId)
    if (!account) throw new AppError('ACCOUNT_NOT_FOUND')
    return account
  }
  await inTransaction(db, async (trx) => {
    const updated = await updateAccountColumns(trx, accountId, changes)
    if (!updated) throw new AppError('ACCOUNT_NOT_FOUND')
    if (price_level !== undefined) await setAccountLevelWithin(trx, accountId, price_level)
    await announceAccountChange(trx, accountId)
  })
  return (await findAccount(db, accountId))!
}

/**
 * An operator's credit (or debit, when negative). A repeated `reference` answers the entry it
 * already made instead of applying again; the account row lock makes that check race-free. The
 * same reference with another amount or direction is a conflict, never silently the old entry.
 */
export async function adjustBalance(db: Database, accountId: number, input: { amount: number; reason: string; reference?: string }) {
  return inTransaction(db, (trx) => adjustBalanceWithin(trx, accountId, input))
}

/** adjustBalance inside the caller's transaction (the demo seed runs in one). */
export async function adjustBalanceWithin(trx: Trx, accountId: number, input: { amount: number; reason: string; reference?: string }) {
  if (input.amount === 0) throw invalidField('amount', 'must not be zero')
  const direction = input.amount > 0 ? 'credit' : 'debit'
  await lockAccount(trx, accountId)
  if (input.reference) {
    const existing = await ledgerEntryByReference(trx, accountId, input.reference)
    if (existing && (existing.type !== 'adjustment' || existing.direction !== direction || existing.amount !== Math.abs(input.amount))) {
      const made = `a ${existing.direction} of ${existing.amount} (${existing.type})`
      throw new AppError('DUPLICATE', {
        fieldErrors: { reference: [`was already used for ${made}; a repeat must have the same amount and direction`] },
      })
    }
    if (existing) return { entry: existing, applied: false }
  }
  const entry = await postLedgerEntry(trx, {
    accountId,
    direction,
    type: 'adjustment',
    amount: Math.abs(input.amount),
    description: input.reason,
    reference: input.reference,
  })
  if (!entry) throw new AppError('BALANCE_IS_INSUFFICIENT')
  return { entry, applied: true }
}

export { findAccountByKeyHash, listAccounts, type AuthenticatedAccount } from './accounts.queries.js'

/** One account for an operator; an unknown id is ACCOUNT_NOT_FOUND. */
export async function getAccount(db: Database, accountId: number) {
  const account = await findAccount(db, accountId)
  if (!account) throw new AppError('ACCOUNT_NOT_FOUND')
  return account
}
