import { sql } from 'kysely'
import type { Database, Trx } from '../../db/database.js'
import type { LevelRoundTo, LevelRuleScope } from '../../db/schema.js'

// The price levels' rows (docs/design.md §5d). Level prices themselves are the catalog's
// (catalog/level-prices.sql), set by hand through set_item_level_price().

const LEVEL_COLUMNS = ['id', 'code', 'name', 'position', 'is_default', 'promote_at', 'promote_to', 'created_at', 'updated_at'] as const

export const listLevelRows = (db: Database) =>
  db.selectFrom('price_levels').select(LEVEL_COLUMNS).orderBy('position').orderBy('id').execute()

export const findLevelByCode = (db: Database, code: string) =>
  db.selectFrom('price_levels').select(LEVEL_COLUMNS).where('code', '=', code).executeTakeFirst()

export const findLevelForUpdate = (trx: Trx, code: string) =>
  trx.selectFrom('price_levels').select(LEVEL_COLUMNS).where('code', '=', code).forNoKeyUpdate().executeTakeFirst()

export type LevelRow = Awaited<ReturnType<typeof listLevelRows>>[number]

export type LevelValues = { code: string; name: string; position: number; promote_at: number | null; promote_to: number | null }

export const insertLevel = (trx: Trx, v: LevelValues) =>
  trx
    .insertInto('price_levels')
    .values({
      code: v.code,
      name: v.name,
      position: v.position,
      promote_at: v.promote_at,
      promote_to: v.promote_to,
      updated_at: new Date(),
    })
    .returning(LEVEL_COLUMNS)
    .executeTakeFirstOrThrow()

export const updateLevelRow = (trx: Trx, id: number, v: Partial<Omit<LevelValues, 'code'>>) =>
  trx
    .updateTable('price_levels')
    .set({ ...v, updated_at: new Date() })
    .where('id', '=', id)
    .returning(LEVEL_COLUMNS)
    .executeTakeFirstOrThrow()

/** The default moves: the old one gives it up first (one default, a unique partial index). */
export async function makeDefault(trx: Trx, id: number): Promise<void> {
  await trx
    .updateTable('price_levels')
    .set({ is_default: false, updated_at: new Date() })
    .where('is_default', '=', true)
    .where('id', '<>', id)
    .execute()
  await trx.updateTable('price_levels').set({ is_default: true, updated_at: new Date() }).where('id', '=', id).execute()
}

export type RuleValues = {
  scope: LevelRuleScope
  category_id: number | null
  brand: string | null
  item_id: number | null
  percent: string
  flat: number
  round_to: LevelRoundTo
}

const RULE_COLUMNS = ['id', 'scope', 'category_id', 'brand', 'item_id', 'percent', 'flat', 'round_to', 'updated_at'] as const

export const listRuleRows = (db: Database, levelId: number) =>
  db.selectFrom('price_level_rules').select(RULE_COLUMNS).where('level_id', '=', levelId).orderBy('id').execute()

export type LevelRuleRow = Awaited<ReturnType<typeof listRuleRows>>[number]

export const deleteRuleRows = (trx: Trx, levelId: number) => trx.deleteFrom('price_level_rules').where('level_id', '=', levelId).execute()

export async function insertRuleRows(trx: Trx, levelId: number, rules: RuleValues[]): Promise<void> {
  if (rules.length === 0) return
  await trx
    .insertInto('price_level_rules')
    .values(
      rules.map((r) => ({
        level_id: levelId,
        scope: r.scope,
        category_id: r.category_id,
        brand: r.brand,
        item_id: r.item_id,
        percent: r.percent,
        flat: r.flat,
        round_to: r.round_to,
        updated_at: new Date(),
      })),
    )
    .execute()
}

/** Recomputes stored level prices (refresh_level_prices): of one level, or of some items at every level. */
export async function refreshLevelPrices(trx: Trx, levelId: number | null, itemIds: number[] | null): Promise<number> {
  const { rows } = await sql<{ moved: number }>`SELECT refresh_level_prices(${levelId}::bigint, ${itemIds}::bigint[]) AS moved`.execute(trx)
  return Number(rows[0]!.moved)
}

export const existingCategoryIds = async (db: Database, ids: number[]) =>
  ids.length === 0 ? [] : (await db.selectFrom('categories').select('id').where('id', 'in', ids).execute()).map((r) => r.id)

export const existingItemIds = async (db: Database, ids: number[]) =>
  ids.length === 0 ? [] : (await db.selectFrom('items').select('id').where('id', 'in', ids).execute()).map((r) => r.id)

/** An item's price at every level, by level position. */
export const itemLevelPriceRows = (db: Database, itemId: number) =>
  db
    .selectFrom('price_levels as l')
    .leftJoin('item_level_prices as lp', (j) => j.onRef('lp.level_id', '=', 'l.id').on('lp.item_id', '=', itemId))
    .select(['l.id as level_id', 'l.code', 'l.name', 'lp.price', 'lp.manual', 'lp.rule_id', 'lp.changed_at'])
    .orderBy('l.position')
    .orderBy('l.id')
    .execute()

/** A level's price set by hand (kept until cleared), or cleared with null (catalog/level-prices.sql). */
export async function setItemLevelPrice(trx: Trx, itemId: number, levelId: number, price: number | null): Promise<void> {
  await sql`SELECT set_item_level_price(${itemId}::bigint, ${levelId}::bigint, ${price}::bigint)`.execute(trx)
}

export const setAccountLevelRow = (trx: Trx, accountId: number, levelId: number) =>
  trx
    .updateTable('accounts')
    .set({ price_level_id: levelId, updated_at: new Date() })
    .where('id', '=', accountId)
    .returning(['id'])
    .executeTakeFirst()
