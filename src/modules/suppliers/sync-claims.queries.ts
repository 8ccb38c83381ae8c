import { sql, type Selectable } from 'kysely'
import type { Database } from '../../db/database.js'
import type { SupplierSyncsTable } from '../../db/schema.js'

export type SupplierSync = Selectable<SupplierSyncsTable>

/**
 * Claims the provider's list for this process: a `running` row, one per provider (a unique index),
 * written before the network call and outside any transaction. A claim older than `staleAfterMs`
 * was left by a process that stopped; it is closed as failed and taken over. Undefined: another
 * process is syncing it now.
 */
export async function claimSync(db: Database, provider: string, staleAfterMs: number): Promise<number | undefined> {
  await db
    .updateTable('supplier_syncs')
    .set({ status: 'failed', finished_at: sql`now()`, error: 'abandoned: the process reading the list stopped before applying it' })
    .where('provider', '=', provider)
    .where('status', '=', 'running')
    .where('started_at', '<', sql<Date>`now() - make_interval(secs => ${staleAfterMs / 1000})`)
    .execute()
  const row = await db
    .insertInto('supplier_syncs')
    .values({ provider, status: 'running' })
    .onConflict((oc) => oc.column('provider').where('status', '=', 'running').doNothing())
    .returning('id')
    .executeTakeFirst()
  return row?.id
}

/** Closes a claim whose list was not applied: the previous list stays. Undefined when the claim was taken over. */
export async function failSync(db: Database, id: number, error: string): Promise<SupplierSync | undefined> {
  return db
    .updateTable('supplier_syncs')
    .set({ status: 'failed', finished_at: sql`now()`, error })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .returningAll()
    .executeTakeFirst()
}

/** The last sync that applied a list, when it started within `minutes`: its result stands in for a new read. */
export async function recentGoodSync(db: Database, provider: string, minutes: number): Promise<SupplierSync | undefined> {
  return db
    .selectFrom('supplier_syncs')
    .selectAll()
    .where('provider', '=', provider)
    .where('status', '=', 'ok')
    .where('started_at', '>', sql<Date>`now() - make_interval(mins => ${minutes})`)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/** The provider a sync is asked for, with whether it has a key to sign with. */
export async function providerToSync(db: Database, code: string) {
  return db.selectFrom('providers').select(['code', 'kind', 'active', 'api_key_enc']).where('code', '=', code).executeTakeFirst()
}

/** The providers the worker syncs: switched on, with a key. */
export async function activeProviders(db: Database) {
  return db
    .selectFrom('providers')
    .select(['code', 'kind'])
    .where('active', '=', true)
    .where('api_key_enc', 'is not', null)
    .orderBy('code')
    .execute()
}

/** Whether the provider's last list had products still listed (an empty answer would mark them all gone). */
export async function hasListedProducts(db: Database, provider: string): Promise<boolean> {
  const row = await db
    .selectFrom('supplier_products')
    .select('code')
    .where('provider', '=', provider)
    .where('gone_at', 'is', null)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** Every provider by code, with its latest sync (running, ok or failed) and how many products its list shows now. */
export async function providersWithLatestSync(db: Database) {
  const { rows } = await sql<{ code: string; kind: string; active: boolean; products: number; last: SupplierSync | null }>`
    SELECT p.code, p.kind, p.active,
           (SELECT count(*)::int FROM supplier_products sp WHERE sp.provider = p.code AND sp.gone_at IS NULL) AS products,
           (SELECT to_jsonb(s) FROM supplier_syncs s WHERE s.provider = p.code ORDER BY s.id DESC LIMIT 1) AS last
      FROM providers p
     ORDER BY p.code`.execute(db)
  return rows
}
