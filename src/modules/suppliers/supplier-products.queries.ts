import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

const containing = (text: string) => `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`

export type ProductFilter = {
  status?: 'active' | 'inactive' | 'gone'
  category?: string
  brand?: string
  search?: string
  page: number
  perPage: number
}

/** A provider's products as its list last showed them, by category, brand and price. */
export async function listSupplierProducts(db: Database, provider: string, f: ProductFilter) {
  let query = db.selectFrom('supplier_products').where('provider', '=', provider)
  if (f.status === 'gone') query = query.where('gone_at', 'is not', null)
  else if (f.status) query = query.where('gone_at', 'is', null).where('active', '=', f.status === 'active')
  if (f.category) query = query.where(sql`lower(category)`, '=', f.category.toLowerCase())
  if (f.brand) query = query.where(sql`lower(brand)`, '=', f.brand.toLowerCase())
  if (f.search) {
    const pattern = containing(f.search)
    query = query.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('code', 'ilike', pattern)]))
  }
  const [rows, count] = await Promise.all([
    query
      .select([
        'code',
        'name',
        'category',
        'brand',
        'type',
        'price',
        'min_quantity',
        'max_quantity',
        'active',
        'unlimited_stock',
        'stock',
        'cut_off_start',
        'cut_off_end',
        'postpaid',
        'first_seen_at',
        'last_seen_at',
        'gone_at',
      ])
      .orderBy('category')
      .orderBy('brand')
      .orderBy('price')
      .orderBy('code')
      .limit(f.perPage)
      .offset((f.page - 1) * f.perPage)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.total) }
}

/** What the syncs found changed, newest first. */
export async function listSupplierChanges(db: Database, provider: string, f: { kind?: string; page: number; perPage: number }) {
  let query = db.selectFrom('supplier_changes').where('provider', '=', provider)
  if (f.kind) query = query.where('kind', '=', f.kind as 'new')
  const [rows, count] = await Promise.all([
    query
      .select(['id', 'code', 'kind', 'old_value as old', 'new_value as new', 'at', 'sync_id'])
      .orderBy('id', 'desc')
      .limit(f.perPage)
      .offset((f.page - 1) * f.perPage)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.total) }
}

export async function providerExists(db: Database, code: string): Promise<boolean> {
  return (await db.selectFrom('providers').select('code').where('code', '=', code).executeTakeFirst()) !== undefined
}
