import type { Database, Trx } from '../../db/database.js'
import { inTransaction } from '../../db/database.js'
import { AppError, type FieldErrors } from '../../errors.js'
import type { PricingScope } from '../../db/schema.js'
import {
  deleteRuleRow,
  findRuleForUpdate,
  insertRule,
  itemExists,
  listRules,
  providerKind,
  updateRuleTerms,
  type RuleKey,
  type RuleRow,
} from './pricing-rules.queries.js'
import { reprice } from './reprice.service.js'

export type RuleBody = {
  scope: PricingScope
  provider?: string
  category?: string
  brand?: string
  item_id?: number
  percent: number
  flat?: number
  round_to?: 1 | 50 | 100 | 500 | 1000
  min_margin?: number
}

export const ruleView = (r: RuleRow) => ({ ...r, percent: Number(r.percent) })
export type RuleView = ReturnType<typeof ruleView>

// Which parts of the key each scope takes (docs/design.md §11b): the rest must be left out.
const KEY_PARTS: Record<PricingScope, { required: (keyof RuleKey)[]; optional: (keyof RuleKey)[] }> = {
  provider: { required: ['provider'], optional: [] },
  category: { required: ['provider', 'category'], optional: [] },
  brand: { required: ['provider', 'brand'], optional: ['category'] },
  item: { required: ['item_id'], optional: [] },
}

function keyOf(body: RuleBody): RuleKey {
  const key: RuleKey = {
    scope: body.scope,
    provider: body.provider ?? null,
    category: body.category?.trim() || null,
    brand: body.brand?.trim() || null,
    item_id: body.item_id ?? null,
  }
  const parts = KEY_PARTS[body.scope]
  const errors: FieldErrors = {}
  for (const part of ['provider', 'category', 'brand', 'item_id'] as const) {
    const given = key[part] !== null
    if (parts.required.includes(part) && !given) errors[part] = [`is required for a ${body.scope} rule`]
    if (given && !parts.required.includes(part) && !parts.optional.includes(part))
      errors[part] = [`does not belong to a ${body.scope} rule; leave it out`]
  }
  if (Object.keys(errors).length > 0) throw new AppError('VALIDATION_ERROR', { fieldErrors: errors })
  return key
}

/** The items a rule can govern: its provider's sourced items, or its one item. */
const governed = (trx: Trx, rule: RuleKey) =>
  reprice(trx, rule.item_id !== null ? { itemIds: [rule.item_id] } : { provider: rule.provider! })

export async function listPricingRules(db: Database): Promise<RuleView[]> {
  return (await listRules(db)).map(ruleView)
}

/**
 * PUT /pricing-rules: sets the rule with this scope key (names in any case), creating it if new, and
 * reprices the items it may now govern in the same transaction.
 */
export async function putPricingRule(db: Database, body: RuleBody) {
  const key = keyOf(body)
  const terms = { percent: body.percent, flat: body.flat ?? 0, round_to: body.round_to ?? 1, min_margin: body.min_margin ?? 0 }
  return inTransaction(db, async (trx) => {
    if (key.provider !== null && !(await providerKind(trx, key.provider)))
      throw new AppError('VALIDATION_ERROR', { fieldErrors: { provider: [`no provider registered with code "${key.provider}"`] } })
    if (key.item_id !== null && !(await itemExists(trx, key.item_id)))
      throw new AppError('VALIDATION_ERROR', { fieldErrors: { item_id: [`no item ${key.item_id}`] } })
    const existing = await findRuleForUpdate(trx, key)
    const rule = existing ? await updateRuleTerms(trx, existing.id, terms) : await insertRule(trx, key, terms)
    return { rule: ruleView(rule), created: !existing, repriced: await governed(trx, key) }
  })
}

/** DELETE /pricing-rules/{id}: its items fall to the next most specific rule, repriced at once. */
export async function deletePricingRule(db: Database, id: number) {
  return inTransaction(db, async (trx) => {
    const rule = await deleteRuleRow(trx, id)
    if (!rule) throw new AppError('NOT_FOUND', { fieldErrors: { id: [`no pricing rule ${id}`] } })
    return { rule: ruleView(rule), repriced: await governed(trx, rule) }
  })
}
