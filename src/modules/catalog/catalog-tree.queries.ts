import { sql, type SelectQueryBuilder } from 'kysely'
import type { Database } from '../../db/database.js'

/** A page of an operator list (`ordered`: `filtered` in its listing order) and the filter's total. */
export async function pageWithTotal<D, TB extends keyof D, O>(
  filtered: SelectQueryBuilder<D, TB, O>,
  ordered: SelectQueryBuilder<D, TB, O>,
  q: { page: number; perPage: number },
) {
  const [rows, count] = await Promise.all([
    ordered
      .limit(q.perPage)
      .offset((q.page - 1) * q.perPage)
      .execute(),
    filtered
      .clearSelect()
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow() as Promise<{ n: number }>,
  ])
  return { rows, total: count.n }
}

/** Categories with how many products and items hang under each. */
export function categoriesQuery(db: Database) {
  return db
    .selectFrom('categories as c')
    .select(['c.id', 'c.name', 'c.slug', 'c.icon', 'c.created_at'])
    .select([
      sql<number>`(SELECT count(*)::int FROM products p WHERE p.category_id = c.id)`.as('product_count'),
      sql<number>`(SELECT count(*)::int FROM items i JOIN products p ON p.id = i.product_id WHERE p.category_id = c.id)`.as('item_count'),
    ])
}

/** Products with their category's name and how many items each has. */
export function productsQuery(db: Database) {
  return db
    .selectFrom('products as p')
    .innerJoin('categories as c', 'c.id', 'p.category_id')
    .select(['p.id', 'p.name', 'p.image', 'p.category_id', 'c.name as category', 'p.created_at'])
    .select(sql<number>`(SELECT count(*)::int FROM items i WHERE i.product_id = p.id)`.as('item_count'))
}

/** Unique-index violations of these two tables (a slug two names share, in a race), as the operator's DUPLICATE. */
export function isNameClash(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string }
  return e.code === '23505' && ['categories_name_key', 'categories_slug_key', 'products_category_id_name_key'].includes(e.constraint ?? '')
}
