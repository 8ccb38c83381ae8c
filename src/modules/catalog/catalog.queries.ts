import { sql, type Expression, type ExpressionBuilder, type RawBuilder } from 'kysely'
import type { Database, Trx } from '../../db/database.js'
import type { DB } from '../../db/schema.js'
import { raisingAppErrors } from '../../db/functions/app-errors.js'

/** `category`: an id, a name (any case) or a slug; `search`: in item, product and SKU (operators). */
export type VariantFilter = { category?: string; search?: string; itemId?: number; activeOnly: boolean }

type From = ExpressionBuilder<DB & { i: DB['items']; p: DB['products']; c: DB['categories'] }, 'i' | 'p' | 'c'>

/** `%text%` for ILIKE, the text taken literally. */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`

/** The category `c` named by a request: by id when it reads as one, else by name in any case or by slug. */
export function categoryIs(eb: ExpressionBuilder<DB & { c: DB['categories'] }, 'c'>, category: string) {
  const byName = eb.or([eb(eb.fn('lower', ['c.name']), '=', category.toLowerCase()), eb('c.slug', '=', category.toLowerCase())])
  return /^\d{1,15}$/.test(category) ? eb.or([eb('c.id', '=', Number(category)), byName]) : byName
}

function applyFilter(eb: From, f: VariantFilter) {
  const conditions = []
  if (f.activeOnly) conditions.push(eb('i.active', '=', true))
  if (f.itemId !== undefined) conditions.push(eb('i.id', '=', f.itemId))
  if (f.category !== undefined) conditions.push(categoryIs(eb, f.category))
  if (f.search) {
    const pattern = containing(f.search)
    conditions.push(eb.or([eb('i.name', 'ilike', pattern), eb('p.name', 'ilike', pattern), eb('i.sku', 'ilike', pattern)]))
  }
  return eb.and(conditions)
}

// Sales of auto items leave the item row alone (it is only share-locked): their time is the licenses'.
function lastSales(eb: From) {
  return eb.selectFrom('licenses as l').select('l.sold_at').whereRef('l.item_id', '=', 'i.id').where('l.status', '=', 'sold')
}

function variantsFrom(db: Database) {
  return db
    .selectFrom('items as i')
    .innerJoin('products as p', 'p.id', 'i.product_id')
    .innerJoin('categories as c', 'c.id', 'p.category_id')
}

export async function countVariants(db: Database, f: VariantFilter): Promise<number> {
  const row = await variantsFrom(db)
    .where((eb) => applyFilter(eb, f))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return row.n
}

// The floor at any price (docs/design.md §11c, §5d): an item bought from supplier sources is on at a
// price while one of them is listed and within the floor there, i.e. the price reaches that source's
// floor_price (catalog/sources.sql). The least floor_price of the listed sources, rounded up to whole
// rupiah (prices are), is compared with each level's price in TypeScript (catalog-levels.ts): one read
// serves every level. NULL with no source listed. Cut-off hours are left to the purchase: a cached
// listing cannot follow the clock.
const hasSources = sql<boolean>`EXISTS (SELECT 1 FROM item_sources s WHERE s.item_id = i.id)`
const leastFloor = sql<number | null>`CASE WHEN ${hasSources} THEN (
  SELECT ceil(min(st.floor_price))::bigint FROM item_source_states(i.id, now()) st WHERE st.listed) END`

// The item's price at every level (item_level_prices, docs/design.md §5d) as [level_id, price, changed_at
// in ms since the epoch, truncated as a timestamp read back is]: the entries of each level are derived
// from this one read.
const levelPrices = sql<LevelPriceCell[]>`(SELECT coalesce(json_agg(json_build_array(
  lp.level_id, lp.price, floor(extract(epoch FROM lp.changed_at) * 1000))), '[]') FROM item_level_prices lp WHERE lp.item_id = i.id)`

/** One level's price of an item: [level_id, price, changed_at in ms]. */
export type LevelPriceCell = [levelId: number, price: number, changedAt: number]

/** Variants with their product and category, and stock available right now (after active locks). */
export function variantsQuery(db: Database, f: VariantFilter) {
  return variantsFrom(db)
    .leftJoin('providers as pr', 'pr.code', 'i.provider')
    .where((eb) => applyFilter(eb, f))
    .selectAll('i')
    .select([
      'p.name as product_name',
      'p.image as product_image',
      'c.id as category_id',
      'c.name as category_name',
      'c.slug as category_slug',
      'c.icon as category_icon',
      'pr.active as provider_active',
      offersValidation(sql.ref('i.order_process'), sql.ref('pr.kind'), sql.ref('i.provider_meta')).as('offers_validation'),
      hasSources.as('has_sources'),
      leastFloor.as('least_floor'),
      levelPrices.as('level_prices'),
      sql<number | null>`greatest(0, ${availableStock(sql.ref('i.id'))})`.as('available'),
      (eb) => eb.fn<Date>('greatest', ['i.updated_at', lastSales(eb).orderBy('l.sold_at', 'desc').limit(1)]).as('changed_at'),
    ])
    .orderBy('c.id')
    .orderBy('p.id')
    .orderBy('i.id')
}
export type VariantRow = Awaited<ReturnType<ReturnType<typeof variantsQuery>['execute']>>[number]

/** One item's variant, as the listing reads it (`activeOnly`: only while it is on). */
export function findVariant(db: Database, itemId: number, f: { activeOnly: boolean }): Promise<VariantRow | undefined> {
  return variantsQuery(db, { itemId, activeOnly: f.activeOnly }).executeTakeFirst()
}

/** A page of variants, in the listing's order. */
export function listVariants(db: Database, f: VariantFilter, q: { page: number; perPage: number }): Promise<VariantRow[]> {
  return variantsQuery(db, f)
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage)
    .execute()
}

/**
 * Whether an item offers account validation (offers_validation(), sources.sql: the one spelling of the rule),
 * from its order process, its provider's kind (NULL without one) and its provider_meta.
 */
export function offersValidation(
  orderProcess: Expression<unknown>,
  providerKind: Expression<unknown>,
  providerMeta: Expression<unknown>,
): RawBuilder<boolean> {
  return sql<boolean>`offers_validation(${orderProcess}, ${providerKind}, ${providerMeta})`
}

/** Stock an item has for sale now: item_stock() less item_reserved() (stock.sql); NULL when unlimited. */
export function availableStock(itemId: Expression<unknown> | number): RawBuilder<number | null> {
  return sql<number | null>`(item_stock(${itemId}) - item_reserved(${itemId}))`
}

/** An item's units for sale now; null when unlimited. */
export async function findStockForSale(db: Database, itemId: number): Promise<number | null> {
  const { available } = await db.selectNoFrom(availableStock(itemId).as('available')).executeTakeFirstOrThrow()
  return available
}

/** Active items with limited stock under `below` units for sale now (after active locks), fewest first. */
export async function findLowStockItems(db: Database, below: number) {
  return db
    .selectFrom((eb) =>
      eb
        .selectFrom('items as i')
        .innerJoin('products as p', 'p.id', 'i.product_id')
        .where('i.active', '=', true)
        .where('i.unlimited_stock', '=', false)
        .select(['i.id', 'i.name', 'p.name as product_name', availableStock(sql.ref('i.id')).as('available')])
        .as('s'),
    )
    .selectAll()
    .where('available', '<', below)
    .orderBy('available')
    .orderBy('id')
    .limit(100)
    .execute()
}

/** Gives back units of limited stock to an item (return_item_stock(), stock.sql). */
export async function returnItemStock(trx: Trx, itemId: number, quantity: number): Promise<void> {
  await sql`SELECT return_item_stock(${itemId}, ${quantity})`.execute(trx)
}

/** The item row, exclusively: queued fairly behind the buyers in flight and ahead of new ones. */
export async function holdItemExclusively(trx: Trx, itemId: number): Promise<void> {
  await sql`SELECT hold_item_exclusively(${itemId})`.execute(trx)
}

/** resend_line_licenses() (stock.sql): the line's licenses void, `count` free ones sold to it; the number claimed. */
export async function claimResendLicenses(trx: Trx, itemId: number, lineId: number, count: number): Promise<number> {
  const { rows } = await raisingAppErrors(
    sql<{ claimed: number }>`SELECT resend_line_licenses(${itemId}::bigint, ${lineId}::bigint, ${count}::int) AS claimed`.execute(trx),
  )
  return Number(rows[0]!.claimed)
}
