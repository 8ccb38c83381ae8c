import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import { offersValidation } from '../catalog/index.js'

/** The item an account check is for, with whether it offers validation and its provider is on. */
export function itemToValidate(db: Database, itemId: number) {
  return db
    .selectFrom('items as i')
    .leftJoin('providers as p', 'p.code', 'i.provider')
    .select([
      'i.order_process',
      'i.active',
      'i.provider',
      'i.provider_code',
      'i.provider_meta',
      offersValidation(sql.ref('i.order_process'), sql.ref('p.kind'), sql.ref('i.provider_meta')).as('offers_validation'),
      'p.active as provider_active',
    ])
    .where('i.id', '=', itemId)
    .executeTakeFirst()
}

/**
 * The active items that offer validation (offers_validation(), catalog/sources.sql), with their products and categories,
 * by product name; `pattern` (an ILIKE pattern, escaped) narrows them to a product or item name.
 */
export function itemsThatValidate(db: Database, pattern: string | null) {
  return db
    .selectFrom('items as i')
    .innerJoin('products as p', 'p.id', 'i.product_id')
    .innerJoin('categories as c', 'c.id', 'p.category_id')
    .innerJoin('providers as pr', 'pr.code', 'i.provider')
    .select(['p.id as product_id', 'p.name as product_name', 'c.name as category', 'i.id as item_id', 'i.name', 'i.provider_meta'])
    .where('i.active', '=', true)
    .where(offersValidation(sql.ref('i.order_process'), sql.ref('pr.kind'), sql.ref('i.provider_meta')))
    .$if(pattern !== null, (q) => q.where((eb) => eb.or([eb('p.name', 'ilike', pattern!), eb('i.name', 'ilike', pattern!)])))
    .orderBy('p.name')
    .orderBy('p.id')
    .orderBy('i.id')
    .execute()
}
