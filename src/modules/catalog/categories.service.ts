import { inTransaction, type Database } from '../../db/database.js'
import { AppError, invalidField } from '../../errors.js'
import { freeSlug } from './category-slug.js'
import { isNameClash } from './catalog-tree.queries.js'
import {
  categoryHasProducts,
  deleteCategoryRow,
  findCategory,
  insertCategory,
  listCategoryPage,
  lockCategory,
  updateCategoryRow,
} from './categories.queries.js'

export type CategoryInput = { name: string; icon?: string | null }
export type CategoryChanges = Partial<CategoryInput>

/** A name as stored: trimmed, never blank (docs/design.md §11: items name their category by it). */
export function cleanName(field: string, name: string): string {
  const trimmed = name.trim()
  if (!trimmed) throw invalidField(field, 'must not be blank')
  return trimmed
}
/** An icon or image: a URL or any short text; blank clears it. */
export const cleanPicture = (value: string | null | undefined) => (value === undefined ? undefined : value?.trim() || null)

async function guarded<T>(work: Promise<T>, what: string): Promise<T> {
  try {
    return await work
  } catch (error) {
    if (isNameClash(error)) throw new AppError('DUPLICATE', { detail: `${what} exists` })
    throw error
  }
}

/** Categories by id, with their counts; `search` in the name. */
export async function listCategories(db: Database, q: { page: number; perPage: number; search?: string }) {
  return listCategoryPage(db, q)
}

export async function getCategory(db: Database, id: number) {
  const row = await findCategory(db, id)
  if (!row) throw new AppError('CATEGORY_NOT_FOUND')
  return row
}

/** A category before any item names it; a name already taken is DUPLICATE. */
export async function createCategory(db: Database, input: CategoryInput) {
  const name = cleanName('name', input.name)
  const row = await guarded(
    insertCategory(db, { name, slug: await freeSlug(db, name), icon: cleanPicture(input.icon) ?? null }),
    `category ${name}`,
  )
  if (!row) throw new AppError('DUPLICATE', { detail: `category ${name} exists` })
  return getCategory(db, row.id)
}

/** Renames (and re-slugs) or re-icons a category; its items carry the change into the next catalog delta (its trigger, catalog-clock.sql). */
export async function updateCategory(db: Database, id: number, changes: CategoryChanges) {
  const name = changes.name === undefined ? undefined : cleanName('name', changes.name)
  const icon = cleanPicture(changes.icon)
  if (name === undefined && icon === undefined) return getCategory(db, id)
  await guarded(
    inTransaction(db, async (trx) => {
      // The slug follows the name (the listing filters by either).
      const slug = name === undefined ? undefined : await freeSlug(trx, name, id)
      const row = await updateCategoryRow(trx, id, { name, slug, icon })
      if (!row) throw new AppError('CATEGORY_NOT_FOUND')
    }),
    `category ${name}`,
  )
  return getCategory(db, id)
}

/** Only an empty category goes: one with products is INVALID_STATE (move or delete them first). */
export async function deleteCategory(db: Database, id: number) {
  return inTransaction(db, async (trx) => {
    const row = await lockCategory(trx, id)
    if (!row) throw new AppError('CATEGORY_NOT_FOUND')
    if (await categoryHasProducts(trx, id))
      throw new AppError('INVALID_STATE', { detail: 'the category has products: move or delete them first' })
    await deleteCategoryRow(trx, id)
    return { id: row.id, name: row.name, deleted: true as const }
  })
}
