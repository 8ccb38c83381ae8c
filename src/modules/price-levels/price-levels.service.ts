import { inTransaction, type Database, type Trx } from '../../db/database.js'
import type { LevelRoundTo, LevelRuleScope } from '../../db/schema.js'
import { AppError, invalidField, type FieldErrors } from '../../errors.js'
import {
  existingCategoryIds,
  existingItemIds,
  findLevelByCode,
  findLevelForUpdate,
  insertLevel,
  insertRuleRows,
  itemLevelPriceRows,
  listLevelRows,
  listRuleRows,
  makeDefault,
  refreshLevelPrices,
  deleteRuleRows,
  setAccountLevelRow,
  setItemLevelPrice,
  updateLevelRow,
  type LevelRow,
  type LevelRuleRow,
  type RuleValues,
} from './price-levels.queries.js'

// Price levels (docs/design.md §5d): the operator's side. Every write recomputes the stored prices it
// moves in its own transaction, so no purchase ever sees a level between two rule sets.

export type LevelBody = {
  code: string
  name: string
  position?: number
  is_default?: boolean
  promote_at?: number | null
  promote_to?: string | null
}
export type LevelPatch = Partial<Omit<LevelBody, 'code'>>
export type LevelRuleBody = {
  scope: LevelRuleScope
  category_id?: number
  brand?: string
  item_id?: number
  percent?: number
  flat?: number
  round_to?: LevelRoundTo
}

const notFound = () => new AppError('PRICE_LEVEL_NOT_FOUND')

export function levelView(row: LevelRow, levels: readonly LevelRow[]) {
  return {
    code: row.code,
    name: row.name,
    position: row.position,
    is_default: row.is_default,
    promote_at: row.promote_at,
    promote_to: levels.find((l) => l.id === row.promote_to)?.code ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}
export type LevelView = ReturnType<typeof levelView>

export const ruleView = (r: LevelRuleRow) => ({
  id: r.id,
  scope: r.scope,
  category_id: r.category_id,
  brand: r.brand,
  item_id: r.item_id,
  percent: Number(r.percent),
  flat: r.flat,
  round_to: r.round_to,
})

export async function listPriceLevels(db: Database): Promise<LevelView[]> {
  const levels = await listLevelRows(db)
  return levels.map((l) => levelView(l, levels))
}

export async function getPriceLevel(db: Database, code: string): Promise<LevelRow> {
  const level = await findLevelByCode(db, code)
  if (!level) throw notFound()
  return level
}

/** promote_to named by code: another existing level. */
async function promoteTarget(db: Database, code: string | null | undefined, self: string): Promise<number | null | undefined> {
  if (code === undefined || code === null) return code
  if (code === self) throw invalidField('promote_to', 'must name another level: a level cannot promote to itself')
  const target = await findLevelByCode(db, code)
  if (!target) throw invalidField('promote_to', `no price level has the code "${code}": see GET /price-levels`)
  return target.id
}

function refuseHalfPromotion(promoteAt: number | null | undefined, promoteTo: number | null | undefined) {
  if ((promoteAt == null) !== (promoteTo == null))
    throw new AppError('VALIDATION_ERROR', {
      fieldErrors: {
        [promoteAt == null ? 'promote_at' : 'promote_to']: ['promote_at and promote_to go together: give both, or null both'],
      },
    })
}

/** POST /price-levels: a new level, each item at its own price until rules say otherwise. */
export async function createPriceLevel(db: Database, body: LevelBody): Promise<LevelView> {
  const code = body.code.trim()
  if (await findLevelByCode(db, code)) throw new AppError('DUPLICATE', { fieldErrors: { code: [`a level "${code}" exists already`] } })
  const promoteTo = await promoteTarget(db, body.promote_to, code)
  refuseHalfPromotion(body.promote_at, promoteTo)
  await inTransaction(db, async (trx) => {
    const row = await insertLevel(trx, {
      code,
      name: levelName(body.name),
      position: body.position ?? 0,
      promote_at: body.promote_at ?? null,
      promote_to: promoteTo ?? null,
    })
    if (body.is_default) await makeDefault(trx, row.id)
    await refreshLevelPrices(trx, row.id, null)
  })
  return (await listPriceLevels(db)).find((l) => l.code === code)!
}

/** A level's name as stored: trimmed, never blank (the table refuses one). */
function levelName(name: string): string {
  const trimmed = name.trim()
  if (!trimmed) throw invalidField('name', 'must not be blank: name the level as resellers and the console show it')
  return trimmed
}

/** PATCH /price-levels/{code}: name, position, the default (taken from the level that had it), promotion. */
export async function updatePriceLevel(db: Database, code: string, patch: LevelPatch): Promise<LevelView> {
  const promoteTo = await promoteTarget(db, patch.promote_to, code)
  await inTransaction(db, async (trx) => {
    const level = await findLevelForUpdate(trx, code)
    if (!level) throw notFound()
    if (patch.is_default === false && level.is_default)
      throw invalidField('is_default', 'one level is always the default: make another level the default instead')
    const promoteAt = patch.promote_at === undefined ? level.promote_at : patch.promote_at
    const target = promoteTo === undefined ? level.promote_to : promoteTo
    refuseHalfPromotion(promoteAt, target)
    await updateLevelRow(trx, level.id, {
      ...(patch.name !== undefined && { name: levelName(patch.name) }),
      ...(patch.position !== undefined && { position: patch.position }),
      promote_at: promoteAt,
      promote_to: target,
    })
    if (patch.is_default) await makeDefault(trx, level.id)
  })
  return (await listPriceLevels(db)).find((l) => l.code === code)!
}

export async function getLevelRules(db: Database, code: string) {
  const level = await getPriceLevel(db, code)
  return (await listRuleRows(db, level.id)).map(ruleView)
}

// Which of category_id, brand, item_id each scope takes (brand may narrow to a category).
const SCOPE_PARTS: Record<LevelRuleScope, { required: string[]; optional: string[] }> = {
  all: { required: [], optional: [] },
  category: { required: ['category_id'], optional: [] },
  brand: { required: ['brand'], optional: ['category_id'] },
  item: { required: ['item_id'], optional: [] },
}

async function checkRules(db: Database, rules: LevelRuleBody[]): Promise<RuleValues[]> {
  const errors: FieldErrors = {}
  const seen = new Map<string, number>()
  const values = rules.map((r, i) => {
    const parts = SCOPE_PARTS[r.scope]
    const given = { category_id: r.category_id, brand: r.brand?.trim() || undefined, item_id: r.item_id }
    for (const [part, value] of Object.entries(given)) {
      if (parts.required.includes(part) && value === undefined)
        (errors[`rules.${i}.${part}`] ??= []).push(`is required for a ${r.scope} rule`)
      if (value !== undefined && !parts.required.includes(part) && !parts.optional.includes(part))
        (errors[`rules.${i}.${part}`] ??= []).push(`does not belong to a ${r.scope} rule; leave it out`)
    }
    const key = JSON.stringify([r.scope, given.category_id ?? null, given.brand?.toLowerCase() ?? null, given.item_id ?? null])
    const twin = seen.get(key)
    if (twin !== undefined) (errors[`rules.${i}`] ??= []).push(`targets what rules.${twin} targets: one rule per target`)
    seen.set(key, i)
    return {
      scope: r.scope,
      category_id: given.category_id ?? null,
      brand: given.brand ?? null,
      item_id: given.item_id ?? null,
      percent: String(r.percent ?? 0),
      flat: r.flat ?? 0,
      round_to: r.round_to ?? 1,
    }
  })
  const categories = new Set(
    await existingCategoryIds(db, [...new Set(values.flatMap((v) => (v.category_id === null ? [] : [v.category_id])))]),
  )
  const items = new Set(await existingItemIds(db, [...new Set(values.flatMap((v) => (v.item_id === null ? [] : [v.item_id])))]))
  values.forEach((v, i) => {
    if (v.category_id !== null && !categories.has(v.category_id))
      (errors[`rules.${i}.category_id`] ??= []).push(`no category ${v.category_id}`)
    if (v.item_id !== null && !items.has(v.item_id)) (errors[`rules.${i}.item_id`] ??= []).push(`no item ${v.item_id}`)
  })
  if (Object.keys(errors).length > 0) throw new AppError('VALIDATION_ERROR', { fieldErrors: errors })
  return values
}

/**
 * PUT /price-levels/{code}/rules: the level's whole rule set replaced, and its prices recomputed, in one
 * transaction: a purchase sees the old prices or the new ones, never a mix of two rule sets' answers.
 */
export async function replaceLevelRules(db: Database, code: string, rules: LevelRuleBody[]) {
  const values = await checkRules(db, rules)
  const moved = await inTransaction(db, async (trx) => {
    const level = await findLevelForUpdate(trx, code)
    if (!level) throw notFound()
    await deleteRuleRows(trx, level.id)
    await insertRuleRows(trx, level.id, values)
    return refreshLevelPrices(trx, level.id, null)
  })
  return { rules: await getLevelRules(db, code), prices_moved: moved }
}

export async function getItemLevelPrices(db: Database, itemId: number) {
  const rows = await itemLevelPriceRows(db, itemId)
  if (rows.every((r) => r.price === null)) throw new AppError('ITEM_NOT_FOUND')
  return rows.map((r) => ({
    level: r.code,
    name: r.name,
    price: r.price!,
    manual: r.manual ?? false,
    rule_id: r.rule_id,
    changed_at: r.changed_at?.toISOString() ?? null,
  }))
}

/** PUT /items/{id}/level-prices `{ level: price | null }`: set by hand, or back to the level's rules (null). */
export async function setItemLevelPrices(db: Database, itemId: number, prices: Record<string, number | null>) {
  const levels = await listLevelRows(db)
  const errors: FieldErrors = {}
  for (const code of Object.keys(prices)) if (!levels.some((l) => l.code === code)) errors[code] = [`no price level has the code "${code}"`]
  if (Object.keys(errors).length > 0) throw new AppError('VALIDATION_ERROR', { fieldErrors: errors })
  if ((await existingItemIds(db, [itemId])).length === 0) throw new AppError('ITEM_NOT_FOUND')
  await inTransaction(db, async (trx) => {
    for (const [code, price] of Object.entries(prices)) {
      const level = levels.find((l) => l.code === code)!
      await setItemLevelPrice(trx, itemId, level.id, price)
    }
  })
  return getItemLevelPrices(db, itemId)
}

/**
 * An account's level (PATCH /resellers/{id} `price_level`), inside the account update's transaction:
 * its next request is priced at it (the row's trigger tells every process's auth cache).
 */
export async function setAccountLevelWithin(trx: Trx, accountId: number, code: string): Promise<void> {
  const level = await findLevelByCode(trx, code)
  if (!level) throw invalidField('price_level', `no price level has the code "${code}": see GET /price-levels`)
  const updated = await setAccountLevelRow(trx, accountId, level.id)
  if (!updated) throw new AppError('ACCOUNT_NOT_FOUND')
}

export const setAccountLevel = (db: Database, accountId: number, code: string): Promise<void> =>
  inTransaction(db, (trx) => setAccountLevelWithin(trx, accountId, code))
