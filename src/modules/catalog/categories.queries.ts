import { sql } from 'kysely'
import type { Database, Trx } from '../../db/database.js'
import { pageWithTotal } from './catalog-tree.queries.js'
import { containing } from './catalog.queries.js'

/** Categories with how many products and items hang under each. */
function categoriesQuery(db: Database) {
  return db
    .selectFrom('categories as c')
    .select(['c.id', 'c.name', 'c.slug', 'c.icon', 'c.created_at'])
    .select([
      sql<number>`(SELECT count(*)::int FROM products p WHERE p.category_id = c.id)`.as('product_count'),
      sql<number>`(SELECT count(*)::int FROM items i JOIN products p ON p.id = i.product_id WHERE p.category_id = c.id)`.as('item_count'),
    ])
}

/** A page of categories by id, with their counts and the filter's total; `search` in the name. */
export async function listCategoryPage(db: Database, q: { page: number; perPage: number; search?: string }) {
  let query = categoriesQuery(db)
  if (q.search) query = query.where('c.name', 'ilike', containing(q.search))
  return pageWithTotal(query, query.orderBy('c.id'), q)
}

/** One category with its counts. */
export function findCategory(db: Database, id: number) {
  return categoriesQuery(db).where('c.id', '=', id).executeTakeFirst()
}

/** A new category; undefined when one of that name exists. */
export function insertCategory(db: Database, row: { name: string; slug: string; icon: string | null }) {
  return db
    .insertInto('categories')
    .values(row)
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('id')
    .executeTakeFirst()
}

/** A category's name, slug or icon (undefined: unchanged); undefined when there is no such category. */
export function updateCategoryRow(trx: Trx, id: number, changes: { name?: string; slug?: string; icon?: string | null }) {
  return trx
    .updateTable('categories')
    .set({ name: changes.name, slug: changes.slug, icon: changes.icon })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst()
}

/** The category row, locked for its deletion. */
export function lockCategory(trx: Trx, id: number) {
  return trx.selectFrom('categories').select(['id', 'name']).where('id', '=', id).forUpdate().executeTakeFirst()
}

/** Whether any product is in the category. */
export async function categoryHasProducts(trx: Trx, id: number): Promise<boolean> {
  const product = await trx.selectFrom('products').select('id').where('category_id', '=', id).limit(1).executeTakeFirst()
  return product !== undefined
}

export async function deleteCategoryRow(trx: Trx, id: number): Promise<void> {
  await trx.deleteFrom('categories').where('id', '=', id).execute()
}
