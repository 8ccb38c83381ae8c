import type { Database } from '../../db/database.js'
import { AppError } from '../../errors.js'
import { panelBalance } from '../../providers/smm-panel.js'
import type { Vault } from '../../vault.js'
import { loadProviderAccount } from './provider-accounts.js'
import { providerKindOf } from './providers.queries.js'

/** Whether the provider's protocol reports a balance (SMM panel v2's `balance` action). */
export const hasBalance = (kind: string) => kind === 'smm_panel'

/** What is left at an SMM panel; a panel that does not answer is reported in `error`, never thrown. */
export async function providerBalance(db: Database, vault: Vault, code: string, timeoutMs: number) {
  const provider = await providerKindOf(db, code)
  if (!provider) throw new AppError('PROVIDER_NOT_FOUND')
  if (!hasBalance(provider.kind)) throw new AppError('INVALID_STATE', { detail: 'balance is an SMM panel action' })
  const account = await loadProviderAccount(db, vault, code)
  const balance = account && (await panelBalance(account, timeoutMs))
  const error = !account ? 'the provider has no API key' : !balance ? 'the panel gave no usable answer' : null
  return { balance: balance?.balance ?? null, currency: balance?.currency ?? null, error }
}
