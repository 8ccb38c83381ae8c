import type { Database } from '../../db/database.js'
import { inTransaction } from '../../db/database.js'
import { AppError } from '../../errors.js'
import type { Vault } from '../../vault.js'
import { loadProviderAccount } from '../fulfilment/index.js'
import { applyList } from './apply-list.queries.js'
import { followSupplierChanges } from './reprice.service.js'
import { readSupplierList } from './supplier-lists.js'
import {
  activeProviders,
  claimSync,
  failSync,
  hasListedProducts,
  providerToSync,
  recentGoodSync,
  type SupplierSync,
} from './sync-claims.queries.js'

export type SyncSettings = { syncMinutes: number; timeoutMs: number; jumpPercent: number }

/** A claim older than this was left by a process that stopped: the list is read twice at most (Digiflazz: prepaid, pasca). */
const staleAfterMs = (s: SyncSettings) => 2 * s.timeoutMs + 60_000

export function syncView(s: SupplierSync) {
  return {
    id: s.id,
    provider: s.provider,
    status: s.status,
    started_at: s.started_at,
    finished_at: s.finished_at,
    listed: s.total,
    skipped: s.skipped,
    changes: { new: s.new_count, price: s.price_count, status: s.status_count, gone: s.gone_count, back: s.back_count, held: s.held_count },
    error: s.error,
  }
}
export type SyncView = ReturnType<typeof syncView>

const refused = (code: 'INVALID_STATE' | 'SERVICE_UNAVAILABLE', sentence: string) =>
  new AppError(code, { fieldErrors: { provider: [sentence] }, detail: sentence })

/** One attempt to read and apply a list: the sync it recorded, or another process holding the claim. */
type Outcome = { sync: SupplierSync } | { busy: true }

/**
 * Reads the provider's list (no transaction open, no row locked during the call), then applies it
 * whole in one transaction. A failed read or an empty list where products were is recorded as a
 * failed sync and changes nothing.
 */
async function readAndApply(db: Database, vault: Vault, provider: { code: string; kind: string }, s: SyncSettings): Promise<Outcome> {
  const syncId = await claimSync(db, provider.code, staleAfterMs(s))
  if (syncId === undefined) return { busy: true }
  // A claim taken over meanwhile (this process was too slow) leaves the other process's result standing.
  const failed = async (reason: string): Promise<Outcome> => {
    const sync = await failSync(db, syncId, reason)
    return sync ? { sync } : { busy: true }
  }
  try {
    const account = await loadProviderAccount(db, vault, provider.code)
    if (!account) return await failed('the provider has no API key to sign the request with')
    const read = await readSupplierList(provider.kind, account, s.timeoutMs)
    if (!read.ok) return await failed(read.reason)
    if (read.products.length === 0 && (await hasListedProducts(db, provider.code)))
      return await failed('the provider answered an empty list; the previous one is kept')
    // The list and the prices it moves commit together: a crash leaves neither half-applied.
    const applied = await inTransaction(db, async (trx) => {
      const list = await applyList(trx, syncId, provider.code, read, s.jumpPercent)
      if (list) await followSupplierChanges(trx, provider.code, list)
      return list?.sync
    })
    return applied ? { sync: applied } : { busy: true }
  } catch (error) {
    await failSync(db, syncId, `sync stopped: ${(error as Error).message}`).catch(() => undefined)
    throw error
  }
}

async function providerOf(db: Database, code: string) {
  const provider = await providerToSync(db, code)
  if (!provider) throw new AppError('PROVIDER_NOT_FOUND')
  if (!provider.api_key_enc)
    throw refused('INVALID_STATE', `the provider has no API key to sign the request with: set one with PATCH /providers/${code}`)
  return provider
}

/**
 * POST /providers/{code}/sync: the last good sync when it is recent (the list is rate-limited
 * upstream), else a new read unless one is running; `force` reads anyway.
 */
export async function syncProvider(
  db: Database,
  vault: Vault,
  code: string,
  options: { force: boolean },
  s: SyncSettings,
): Promise<SyncView & { cached: boolean }> {
  const provider = await providerOf(db, code)
  if (!options.force) {
    const recent = await recentGoodSync(db, code, s.syncMinutes)
    if (recent) return { ...syncView(recent), cached: true }
  }
  const outcome = await readAndApply(db, vault, provider, s)
  if ('busy' in outcome) throw refused('INVALID_STATE', 'a sync of this provider is running now; ask again when it has finished')
  const sync = syncView(outcome.sync)
  if (sync.status === 'failed')
    throw refused('SERVICE_UNAVAILABLE', `sync ${sync.id}: the price list could not be read (${sync.error}); the previous list is kept`)
  return { ...sync, cached: false }
}

/**
 * The worker's pass: every active provider whose last good sync is older than the interval, one
 * at a time. Failures are recorded per sync and then thrown together, for the worker's log.
 */
export async function syncActiveProviders(db: Database, vault: Vault, s: SyncSettings): Promise<SupplierSync[]> {
  const providers = await activeProviders(db)
  const synced: SupplierSync[] = []
  for (const provider of providers) {
    if (await recentGoodSync(db, provider.code, s.syncMinutes)) continue
    const outcome = await readAndApply(db, vault, provider, s)
    if ('sync' in outcome) synced.push(outcome.sync)
  }
  const failed = synced.filter((sync) => sync.status === 'failed')
  if (failed.length > 0) throw new Error(`supplier sync failed: ${failed.map((f) => `${f.provider} (${f.error})`).join('; ')}`)
  return synced
}
