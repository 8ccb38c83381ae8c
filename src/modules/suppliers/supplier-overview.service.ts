import type { Database } from '../../db/database.js'
import { providersWithLatestSync } from './sync-claims.queries.js'
import { syncView, type SyncView } from './sync.service.js'

export type ProviderSyncs = { code: string; kind: string; active: boolean; products: number; last: SyncView | null }

/** Every provider with its latest sync (running, ok or failed) and how many products its list shows now: the console's suppliers page. */
export async function providerSyncs(db: Database): Promise<ProviderSyncs[]> {
  const rows = await providersWithLatestSync(db)
  return rows.map((r) => ({ ...r, products: Number(r.products), last: r.last ? syncView(r.last) : null }))
}
