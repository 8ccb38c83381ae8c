import { sql } from 'kysely'
import type { Database, Trx } from '../../db/database.js'
import { pageWithTotal } from './catalog-tree.queries.js'
import { categoryIs, containing } from './catalog.queries.js'

/** Products with their category's name and how many items each has. */
function productsQuery(db: Database) {
  return db
    .selectFrom('products as p')
    .innerJoin('categories as c', 'c.id', 'p.category_id')
    .select(['p.id', 'p.name', 'p.image', 'p.category_id', 'c.name as category', 'p.created_at'])
    .select(sql<number>`(SELECT count(*)::int FROM items i WHERE i.product_id = p.id)`.as('item_count'))
}

/** A page of products by category and id, and the filter's total; `category` by id or name (any case), `search` in the name. */
export async function listProductPage(db: Database, q: { page: number; perPage: number; search?: string; category?: string }) {
  let query = productsQuery(db)
  if (q.search) query = query.where('p.name', 'ilike', containing(q.search))
  if (q.category !== undefined) {
    const category = q.category
    query = query.where((eb) => categoryIs(eb, category))
  }
  return pageWithTotal(query, query.orderBy('p.category_id').orderBy('p.id'), q)
}

/** One product with its category's name and item count. */
export function findProduct(db: Database, id: number) {
  return productsQuery(db).where('p.id', '=', id).executeTakeFirst()
}

/** The category's id, share-locked so it cannot be deleted under the change; undefined when there is none. */
export function holdCategoryRow(trx: Trx, id: number) {
  return trx.selectFrom('categories').select('id').where('id', '=', id).forKeyShare().executeTakeFirst()
}

/** The id of the category of that name (it exists), share-locked like holdCategoryRow. */
export async function holdCategoryNamed(trx: Trx, name: string): Promise<number> {
  const row = await trx.selectFrom('categories').select('id').where('name', '=', name).forKeyShare().executeTakeFirstOrThrow()
  return row.id
}

/** A new product; undefined when its category has one of that name. */
export function insertProduct(trx: Trx, row: { category_id: number; name: string; image: string | null }) {
  return trx
    .insertInto('products')
    .values(row)
    .onConflict((oc) => oc.columns(['category_id', 'name']).doNothing())
    .returning('id')
    .executeTakeFirst()
}

/** A product's name, image or category (undefined: unchanged); undefined when there is no such product. */
export function updateProductRow(trx: Trx, id: number, changes: { name?: string; image?: string | null; category_id?: number }) {
  return trx
    .updateTable('products')
    .set({ name: changes.name, image: changes.image, category_id: changes.category_id })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst()
}

/** A product's items, on or off, by id (at most 500). */
export function productItems(db: Database, productId: number) {
  return db
    .selectFrom('items')
    .select(['id', 'sku', 'name', 'price', 'order_process', 'active'])
    .where('product_id', '=', productId)
    .orderBy('id')
    .limit(500)
    .execute()
}

/** The product row, locked for its deletion. */
export function lockProduct(trx: Trx, id: number) {
  return trx.selectFrom('products').select(['id', 'name']).where('id', '=', id).forUpdate().executeTakeFirst()
}

/** Whether the product has any item. */
export async function productHasItems(trx: Trx, id: number): Promise<boolean> {
  const item = await trx.selectFrom('items').select('id').where('product_id', '=', id).limit(1).executeTakeFirst()
  return item !== undefined
}

export async function deleteProductRow(trx: Trx, id: number): Promise<void> {
  await trx.deleteFrom('products').where('id', '=', id).execute()
}
