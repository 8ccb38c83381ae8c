import { inTransaction, type Database } from '../../db/database.js'
import type { Provider, ProviderKind } from '../../db/schema.js'
import { AppError } from '../../errors.js'
import type { Vault } from '../../vault.js'
import { findProvider, insertProvider, providersByCode, updateProviderRow } from './providers.queries.js'

export type ProviderInput = {
  code: string
  kind: ProviderKind
  base_url: string
  username?: string | null
  api_key?: string | null
  active?: boolean
  /** Low-balance alert thresholds (docs/design.md §11e): Rupiah, hours at the day's rate; null: none. */
  balance_alert_below?: number | null
  balance_alert_hours?: number | null
}

/** What an operator sees of a provider: never its key, only whether one is set. */
export function providerView(p: Provider) {
  const { api_key_enc, balance_alert_hours, ...rest } = p
  return {
    ...rest,
    has_api_key: api_key_enc !== null,
    // numeric: a string or a number as the driver reads it.
    balance_alert_hours: balance_alert_hours === null ? null : Number(balance_alert_hours),
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  }
}

/** Only the columns named here can change: never the code (items refer to it), never a raw key. */
export async function updateProvider(db: Database, vault: Vault, code: string, changes: Partial<Omit<ProviderInput, 'code'>>) {
  const { kind, base_url, username, api_key, active, balance_alert_below, balance_alert_hours } = changes
  if ([kind, base_url, username, api_key, active, balance_alert_below, balance_alert_hours].every((v) => v === undefined)) {
    const row = await findProvider(db, code)
    if (!row) throw new AppError('PROVIDER_NOT_FOUND')
    return providerView(row)
  }
  return inTransaction(db, async (trx) => {
    const row = await updateProviderRow(trx, code, {
      kind,
      base_url: base_url?.replace(/\/+$/, ''),
      username,
      api_key_enc: api_key === undefined ? undefined : api_key ? vault.encrypt(api_key) : null,
      active,
      balance_alert_below,
      balance_alert_hours:
        balance_alert_hours === undefined || balance_alert_hours === null ? balance_alert_hours : String(balance_alert_hours),
    })
    if (!row) throw new AppError('PROVIDER_NOT_FOUND')
    // Switching a provider changes its items' status in the catalog: providers' trigger (catalog-clock.sql)
    // puts them in the next delta.
    return providerView(row)
  })
}

export async function listProviders(db: Database) {
  const rows = await providersByCode(db)
  return rows.map(providerView)
}

/** One statement: runs alone or inside the caller's transaction (the demo seed). */
export async function createProvider(db: Database, vault: Vault, input: ProviderInput) {
  const row = await insertProvider(db, {
    code: input.code,
    kind: input.kind,
    base_url: input.base_url.replace(/\/+$/, ''),
    username: input.username ?? null,
    api_key_enc: input.api_key ? vault.encrypt(input.api_key) : null,
    active: input.active ?? true,
    balance_alert_below: input.balance_alert_below ?? null,
    balance_alert_hours: input.balance_alert_hours == null ? null : String(input.balance_alert_hours),
  })
  if (!row) throw new AppError('DUPLICATE', { detail: `provider ${input.code} exists` })
  return providerView(row)
}
