import { inTransaction, type Database, type Trx } from '../../db/database.js'
import { AppError, invalidField } from '../../errors.js'
import { isNameClash, pageWithTotal, productsQuery } from './catalog-tree.queries.js'
import { categoryIs, containing } from './catalog.queries.js'
import { cleanName, cleanPicture } from './categories.service.js'
import { ensureCategory } from './category-slug.js'

/** `category_id`, or `category` by name (created on first use; neither: Uncategorized), as items name theirs (docs/design.md §11). */
export type ProductInput = { name: string; image?: string | null; category_id?: number; category?: string }
export type ProductChanges = { name?: string; image?: string | null; category_id?: number }

async function guarded<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (error) {
    if (isNameClash(error)) throw new AppError('DUPLICATE', { detail: 'the category has a product of that name' })
    throw error
  }
}

/** The category a product goes into, share-locked so it cannot be deleted under the change. */
async function holdCategory(trx: Trx, id: number): Promise<void> {
  const row = await trx.selectFrom('categories').select('id').where('id', '=', id).forKeyShare().executeTakeFirst()
  if (!row) throw invalidField('category_id', `no category with id ${id}`)
}

async function categoryIdByName(trx: Trx, name: string): Promise<number> {
  await ensureCategory(trx, name)
  const row = await trx.selectFrom('categories').select('id').where('name', '=', name).forKeyShare().executeTakeFirstOrThrow()
  return row.id
}

/** Products by category and id; `category` by id or name (any case), `search` in the product's name. */
export async function listProducts(db: Database, q: { page: number; perPage: number; search?: string; category?: string }) {
  let query = productsQuery(db)
  if (q.search) query = query.where('p.name', 'ilike', containing(q.search))
  if (q.category !== undefined) {
    const category = q.category
    query = query.where((eb) => categoryIs(eb, category))
  }
  return pageWithTotal(query, query.orderBy('p.category_id').orderBy('p.id'), q)
}

export async function getProduct(db: Database, id: number) {
  const row = await productsQuery(db).where('p.id', '=', id).executeTakeFirst()
  if (!row) throw new AppError('PRODUCT_NOT_FOUND')
  return row
}

/** A product before any item names it; the same name twice in one category is DUPLICATE. */
export async function createProduct(db: Database, input: ProductInput) {
  const name = cleanName('name', input.name)
  if (input.category_id !== undefined && input.category !== undefined)
    throw invalidField('category', 'give category_id or category, not both')
  const id = await inTransaction(db, async (trx) => {
    let categoryId = input.category_id
    if (categoryId === undefined) categoryId = await categoryIdByName(trx, input.category?.trim() || 'Uncategorized')
    else await holdCategory(trx, categoryId)
    const row = await trx
      .insertInto('products')
      .values({ category_id: categoryId, name, image: cleanPicture(input.image) ?? null })
      .onConflict((oc) => oc.columns(['category_id', 'name']).doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!row) throw new AppError('DUPLICATE', { detail: `the category has a product named ${name}` })
    return row.id
  })
  return getProduct(db, id)
}

/** Renames a product, changes its image or moves it to another category; its items carry the change into the next delta (its trigger, catalog-clock.sql). */
export async function updateProduct(db: Database, id: number, changes: ProductChanges) {
  const name = changes.name === undefined ? undefined : cleanName('name', changes.name)
  const image = cleanPicture(changes.image)
  const categoryId = changes.category_id
  if (name === undefined && image === undefined && categoryId === undefined) return getProduct(db, id)
  await guarded(
    inTransaction(db, async (trx) => {
      if (categoryId !== undefined) await holdCategory(trx, categoryId)
      const row = await trx
        .updateTable('products')
        .set({ name, image, category_id: categoryId })
        .where('id', '=', id)
        .returning('id')
        .executeTakeFirst()
      if (!row) throw new AppError('PRODUCT_NOT_FOUND')
    }),
  )
  return getProduct(db, id)
}

/** A product's items, on or off, for its page (the full view of each is GET /items/{id}). */
export async function listProductItems(db: Database, productId: number) {
  return db
    .selectFrom('items')
    .select(['id', 'sku', 'name', 'price', 'order_process', 'active'])
    .where('product_id', '=', productId)
    .orderBy('id')
    .limit(500)
    .execute()
}

/** Only a product without items goes: one with items is INVALID_STATE (items keep their sales history). */
export async function deleteProduct(db: Database, id: number) {
  return inTransaction(db, async (trx) => {
    const row = await trx.selectFrom('products').select(['id', 'name']).where('id', '=', id).forUpdate().executeTakeFirst()
    if (!row) throw new AppError('PRODUCT_NOT_FOUND')
    const item = await trx.selectFrom('items').select('id').where('product_id', '=', id).limit(1).executeTakeFirst()
    if (item) throw new AppError('INVALID_STATE', { detail: 'the product has items; switch them off instead' })
    await trx.deleteFrom('products').where('id', '=', id).execute()
    return { id: row.id, name: row.name, deleted: true as const }
  })
}
