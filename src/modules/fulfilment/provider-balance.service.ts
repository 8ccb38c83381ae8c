import type { Database } from '../../db/database.js'
import { AppError } from '../../errors.js'
import { depositBalance } from '../../providers/digiflazz.js'
import { panelBalance } from '../../providers/smm-panel.js'
import type { ProviderAccount } from '../../providers/upstream-http.js'
import type { Vault } from '../../vault.js'
import { eachLimited, loadProviderAccount } from './provider-accounts.js'
import { balanceRowOf, providersDueForBalance, recordBalanceRead, type BalanceRow } from './provider-balance.queries.js'
import { providerKindOf } from './providers.queries.js'

// docs/design.md §11e: Digiflazz's cek-saldo and an SMM panel's `balance` action.
const READERS: Record<string, (account: ProviderAccount, timeoutMs: number) => Promise<{ balance: string; currency: string } | undefined>> =
  {
    digiflazz: depositBalance,
    smm_panel: panelBalance,
  }
const KINDS = Object.keys(READERS)

/** Whether the provider's protocol reports a balance. */
export const hasBalance = (kind: string) => kind in READERS

/** A provider's balance as GET /providers/{code}/balance answers it: the last read, the 24 hours' spend, the hours it lasts at that rate. */
export type ProviderBalanceView = {
  provider: string
  balance: number | null
  currency: string | null
  read_at: Date | null
  error: string | null
  spent_24h: number
  hours_left: number | null
}

function balanceView(row: BalanceRow): ProviderBalanceView {
  const balance = row.balance === null ? null : Number(row.balance)
  const spent = Number(row.spent_24h)
  // At the last 24 hours' rate; a balance in another currency than the costs (IDR) is not compared.
  const hoursLeft =
    balance !== null && row.currency === 'IDR' && spent > 0 ? Math.max(0, Math.floor((balance / spent) * 24 * 10) / 10) : null
  return {
    provider: row.code,
    balance,
    currency: row.currency,
    read_at: row.read_at,
    error: row.error,
    spent_24h: spent,
    hours_left: hoursLeft,
  }
}

/** Reads one provider's balance over its protocol now and records it; a provider that does not answer is recorded as an error, never thrown. */
export async function readProviderBalance(db: Database, vault: Vault, code: string, timeoutMs: number): Promise<void> {
  // Its kind alone: a read needs no 24 hours' spend (balanceRowOf sums it for the answers).
  const provider = await providerKindOf(db, code)
  if (!provider) throw new AppError('PROVIDER_NOT_FOUND')
  const reader = READERS[provider.kind]
  if (!reader) throw new AppError('INVALID_STATE', { detail: `a ${provider.kind} provider reports no balance` })
  const account = await loadProviderAccount(db, vault, code)
  if (!account) return void (await recordBalanceRead(db, code, { error: 'the provider has no API key' }))
  await recordAnswer(db, code, await reader(account, timeoutMs))
}

/** After an answer that the balance is too low (Digiflazz rc 44): the balance read at once with the account at hand. */
export async function readBalanceOf(db: Database, account: ProviderAccount, kind: string, timeoutMs: number): Promise<void> {
  const reader = READERS[kind]
  if (reader) await recordAnswer(db, account.code, await reader(account, timeoutMs))
}

async function recordAnswer(db: Database, code: string, read: { balance: string; currency: string } | undefined) {
  await recordBalanceRead(db, code, read ?? { error: 'the provider gave no usable answer' })
}

/** GET /providers/{code}/balance: the last read, never a call to the provider. */
export async function providerBalance(db: Database, code: string): Promise<ProviderBalanceView> {
  const row = await balanceRowOf(db, code)
  if (!row) throw new AppError('PROVIDER_NOT_FOUND')
  if (!hasBalance(row.kind)) throw new AppError('INVALID_STATE', { detail: `a ${row.kind} provider reports no balance` })
  return balanceView(row)
}

/** POST /providers/{code}/balance/refresh: read now, then answer as GET does. */
export async function refreshProviderBalance(db: Database, vault: Vault, code: string, timeoutMs: number): Promise<ProviderBalanceView> {
  await readProviderBalance(db, vault, code, timeoutMs)
  return providerBalance(db, code)
}

/** The balance worker's pass: every switched-on provider whose last read is `everyMs` old, four at a time. */
export async function readDueBalances(db: Database, vault: Vault, o: { everyMs: number; timeoutMs: number }): Promise<number> {
  const due = await providersDueForBalance(db, KINDS, o.everyMs)
  await eachLimited(due, 4, (code) => readProviderBalance(db, vault, code, o.timeoutMs))
  return due.length
}
