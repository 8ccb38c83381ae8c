import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import type { SupplierSync } from './sync-claims.queries.js'
import { syncView, type SyncView } from './sync.service.js'

export type ProviderSyncs = { code: string; kind: string; active: boolean; products: number; last: SyncView | null }

/** Every provider with its latest sync (running, ok or failed) and how many products its list shows now: the console's suppliers page. */
export async function providerSyncs(db: Database): Promise<ProviderSyncs[]> {
  const { rows } = await sql<{ code: string; kind: string; active: boolean; products: number; last: SupplierSync | null }>`
    SELECT p.code, p.kind, p.active,
           (SELECT count(*)::int FROM supplier_products sp WHERE sp.provider = p.code AND sp.gone_at IS NULL) AS products,
           (SELECT to_jsonb(s) FROM supplier_syncs s WHERE s.provider = p.code ORDER BY s.id DESC LIMIT 1) AS last
      FROM providers p
     ORDER BY p.code`.execute(db)
  return rows.map((r) => ({ ...r, products: Number(r.products), last: r.last ? syncView(r.last) : null }))
}
