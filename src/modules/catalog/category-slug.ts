import type { Database } from '../../db/database.js'
import { AppError } from '../../errors.js'

/** A category's slug from its name: ASCII letters and digits, lower case, dashes between (`Top Up & Games` → `top-up-games`). */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 80)
    .replace(/^-+|-+$/g, '')
  return slug || 'category'
}

/** The slug for `name`, -2, -3… when another category (not `ownId`) has it; the unique index settles a race. */
export async function freeSlug(trx: Database, name: string, ownId?: number): Promise<string> {
  const base = slugOf(name)
  // The base has no LIKE wildcards: letters, digits and dashes only.
  const rows = await trx
    .selectFrom('categories')
    .select(['id', 'slug'])
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute()
  const taken = new Set(rows.filter((r) => r.id !== ownId).map((r) => r.slug))
  let slug = base
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`
  return slug
}

/**
 * Creates the category named `name`, with its slug, unless it exists (items and products name theirs,
 * docs/design.md §11). Two requests naming one new category race on both unique indexes: the loser's insert
 * does nothing and its next look finds the winner's row (or a slug taken meanwhile, and tries the next).
 */
export async function ensureCategory(trx: Database, name: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await trx.selectFrom('categories').select('id').where('name', '=', name).executeTakeFirst()) return
    const inserted = await trx
      .insertInto('categories')
      .values({ name, slug: await freeSlug(trx, name) })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst()
    if (inserted) return
  }
  throw new AppError('DUPLICATE', { detail: `the category ${name} is being created by another request; send this one again` })
}
