import { inTransaction, type Database, type Trx } from '../../db/database.js'
import { AppError, invalidField } from '../../errors.js'
import { isNameClash } from './catalog-tree.queries.js'
import {
  deleteProductRow,
  findProduct,
  holdCategoryNamed,
  holdCategoryRow,
  insertProduct,
  listProductPage,
  lockProduct,
  productHasItems,
  productItems,
  updateProductRow,
} from './products.queries.js'
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
  const row = await holdCategoryRow(trx, id)
  if (!row) throw invalidField('category_id', `no category with id ${id}`)
}

async function categoryIdByName(trx: Trx, name: string): Promise<number> {
  await ensureCategory(trx, name)
  return holdCategoryNamed(trx, name)
}

/** Products by category and id; `category` by id or name (any case), `search` in the product's name. */
export async function listProducts(db: Database, q: { page: number; perPage: number; search?: string; category?: string }) {
  return listProductPage(db, q)
}

export async function getProduct(db: Database, id: number) {
  const row = await findProduct(db, id)
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
    const row = await insertProduct(trx, { category_id: categoryId, name, image: cleanPicture(input.image) ?? null })
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
      const row = await updateProductRow(trx, id, { name, image, category_id: categoryId })
      if (!row) throw new AppError('PRODUCT_NOT_FOUND')
    }),
  )
  return getProduct(db, id)
}

/** A product's items, on or off, for its page (the full view of each is GET /items/{id}). */
export async function listProductItems(db: Database, productId: number) {
  return productItems(db, productId)
}

/** Only a product without items goes: one with items is INVALID_STATE (items keep their sales history). */
export async function deleteProduct(db: Database, id: number) {
  return inTransaction(db, async (trx) => {
    const row = await lockProduct(trx, id)
    if (!row) throw new AppError('PRODUCT_NOT_FOUND')
    if (await productHasItems(trx, id)) throw new AppError('INVALID_STATE', { detail: 'the product has items; switch them off instead' })
    await deleteProductRow(trx, id)
    return { id: row.id, name: row.name, deleted: true as const }
  })
}
