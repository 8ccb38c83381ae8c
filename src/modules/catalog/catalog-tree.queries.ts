import { sql, type SelectQueryBuilder } from 'kysely'

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

/** Unique-index violations of these two tables (a slug two names share, in a race), as the operator's DUPLICATE. */
export function isNameClash(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string }
  return e.code === '23505' && ['categories_name_key', 'categories_slug_key', 'products_category_id_name_key'].includes(e.constraint ?? '')
}
