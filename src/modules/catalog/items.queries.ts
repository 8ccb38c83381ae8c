import { sql, type Insertable, type Updateable } from 'kysely'
import type { Trx } from '../../db/database.js'
import type { DB, ProviderKind } from '../../db/schema.js'

// The statements of an item's writes (items.service.ts, item-provider.service.ts): the caller holds the
// item's gate first (holdItemExclusively, catalog.queries.ts) where the lock order asks for it.

/** The id of the product of that name in the category of that name (the category exists), made on first use. */
export async function productIdNamed(trx: Trx, categoryName: string, productName: string): Promise<number> {
  const category = await trx.selectFrom('categories').select('id').where('name', '=', categoryName).executeTakeFirstOrThrow()
  await trx
    .insertInto('products')
    .values({ category_id: category.id, name: productName })
    .onConflict((oc) => oc.columns(['category_id', 'name']).doNothing())
    .execute()
  const product = await trx
    .selectFrom('products')
    .select('id')
    .where('category_id', '=', category.id)
    .where('name', '=', productName)
    .executeTakeFirstOrThrow()
  return product.id
}

export async function providerExists(trx: Trx, code: string): Promise<boolean> {
  const provider = await trx.selectFrom('providers').select('code').where('code', '=', code).executeTakeFirst()
  return provider !== undefined
}

/** The whole item row, locked for a change of its columns; undefined when there is none. */
export function lockItem(trx: Trx, itemId: number) {
  return trx.selectFrom('items').selectAll().where('id', '=', itemId).forNoKeyUpdate().executeTakeFirst()
}

/** The item's order process, its row locked; undefined when there is none. */
export function lockItemProcess(trx: Trx, itemId: number) {
  return trx.selectFrom('items').select(['id', 'order_process']).where('id', '=', itemId).forNoKeyUpdate().executeTakeFirst()
}

/**
 * The item's order process and the kind of provider that process buys from (provider_kind_of(), sources.sql;
 * null: none), its row locked; undefined when there is none.
 */
export function lockItemSourcing(trx: Trx, itemId: number) {
  return trx
    .selectFrom('items')
    .select(['order_process', sql<ProviderKind | null>`provider_kind_of(order_process)`.as('provider_kind')])
    .where('id', '=', itemId)
    .forNoKeyUpdate()
    .executeTakeFirst()
}

export async function updateItemRow(trx: Trx, itemId: number, columns: Updateable<DB['items']>): Promise<void> {
  await trx.updateTable('items').set(columns).where('id', '=', itemId).execute()
}

/** New items; answers each one's id and SKU. */
export function insertItems(trx: Trx, rows: Insertable<DB['items']>[]) {
  return trx.insertInto('items').values(rows).returning(['id', 'sku']).execute()
}

/** Points the item's provider and code at a source, when they are not that already. */
export async function pointItemAt(trx: Trx, itemId: number, source: { provider: string; code: string }): Promise<void> {
  await trx
    .updateTable('items')
    .set({ provider: source.provider, provider_code: source.code })
    .where('id', '=', itemId)
    .where((eb) => eb.or([eb('provider', 'is distinct from', source.provider), eb('provider_code', 'is distinct from', source.code)]))
    .execute()
}

/**
 * Stocks licenses (fingerprint, encrypted content) for an item: only those whose fingerprint is new to the
 * registry (migration 0180), which registers them. Answers how many were stocked.
 */
export async function insertNewLicenses(trx: Trx, itemId: number, licenses: { fingerprint: string; contentEnc: string }[]) {
  const inserted = await sql<{ id: number }>`
      WITH u AS (
        SELECT * FROM unnest(${licenses.map((l) => l.fingerprint)}::text[], ${licenses.map((l) => l.contentEnc)}::text[]) AS u(fingerprint, content_enc)
      ), registered AS (
        INSERT INTO license_fingerprints (fingerprint) SELECT fingerprint FROM u ON CONFLICT DO NOTHING RETURNING fingerprint
      )
      INSERT INTO licenses (item_id, fingerprint, content_enc)
      SELECT ${itemId}::bigint, u.fingerprint, u.content_enc FROM u JOIN registered USING (fingerprint)
      RETURNING id`.execute(trx)
  return inserted.rows.length
}
