import { sql, type Kysely } from 'kysely'

// docs/design.md §5b: the public docs filter GET /v1/item by a category's slug. Existing categories get
// one from their name (the rule of catalog/category-slug.ts as of this migration: ASCII letters
// and digits, lower case, dashes between), a clash getting -2, -3… in id order; the catalog module
// derives it on every insert and rename from then on. Nullable and unique: a category an older
// process inserts mid-deploy has none until renamed, and the listing derives it meanwhile.
const slugOf = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 80)
    .replace(/^-+|-+$/g, '') || 'category'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE categories ADD COLUMN slug text`.execute(db)
  const { rows } = await sql<{ id: number; name: string }>`SELECT id, name FROM categories ORDER BY id`.execute(db)
  const taken = new Set<string>()
  for (const row of rows) {
    const base = slugOf(row.name)
    let slug = base
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`
    taken.add(slug)
    await sql`UPDATE categories SET slug = ${slug} WHERE id = ${row.id}`.execute(db)
  }
  await sql`CREATE UNIQUE INDEX categories_slug_key ON categories (slug)`.execute(db)
}
