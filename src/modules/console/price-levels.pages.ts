import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { invalidField } from '../../errors.js'
import { IdParam } from '../../http/schemas.js'
import { getAdminItem } from '../catalog/index.js'
import {
  createPriceLevel,
  getItemLevelPrices,
  getLevelRules,
  getPriceLevel,
  LevelBodySchema,
  LevelChangesBody,
  LevelPricesBody,
  listPriceLevels,
  replaceLevelRules,
  RulesBody,
  setItemLevelPrices,
  updatePriceLevel,
  type LevelBody,
  type LevelPatch,
  type LevelRuleBody,
} from '../price-levels/index.js'
import { Form, Optional, Text, asApiBody, blankToUndefined, checked, noticeOf, wholeNumber } from './form.js'
import { formRefusal } from './refusals.js'

const hide = true
const Done = Type.Object({ done: Optional(Type.String({ maxLength: 20 })) })
const CodeParam = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) })
const LevelPage = Type.Object({
  done: Optional(Type.String({ maxLength: 20 })),
  rows: Optional(Type.Integer({ minimum: 0, maximum: 100 })),
})
/** Rows the rules form takes; a level with more rules is edited through the API or the CLI. */
export const RULE_ROWS = 100
const RULE_PARTS = ['scope', 'category_id', 'brand', 'item_id', 'percent', 'flat', 'round_to', 'remove'] as const
const RuleFields = Object.fromEntries(
  Array.from({ length: RULE_ROWS }, (_, i) =>
    RULE_PARTS.map((part) => [`${part}_${i}`, Optional(Text(part === 'brand' ? 100 : 20))]),
  ).flat(),
)
const LevelFields = {
  name: Text(100),
  position: Optional(Text(10)),
  is_default: Optional(Text(5)),
  promote_at: Optional(Text(10)),
  promote_to: Optional(Text(32)),
}

/** A percent typed into a form: negative and decimal allowed (a discount level). */
function percentOf(field: string, text: string | undefined): number | undefined {
  if (blankToUndefined(text) === undefined) return undefined
  if (!/^-?\d+(\.\d+)?$/.test(text!.trim())) throw invalidField(field, 'must be a number, like 2.5 or -3')
  return Number(text)
}

/** The form's level fields as the API takes them (blank promotion: none). */
function levelValues(b: Record<string, string | undefined>) {
  const promoteAt = wholeNumber('promote_at', b.promote_at) ?? null
  const promoteTo = blankToUndefined(b.promote_to) ?? null
  return {
    name: b.name,
    position: wholeNumber('position', b.position),
    ...(checked(b.is_default) && { is_default: true }),
    promote_at: promoteAt,
    promote_to: promoteTo,
  }
}

/**
 * Price levels (docs/design.md §5d): the list and a new level, a level's details, promotion and rules
 * (the whole set saved at once, as PUT /price-levels/{code}/rules), an item's hand-set price per level.
 */
export function priceLevelPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  const listPage = async (extra: Record<string, unknown> = {}) => ({ levels: await listPriceLevels(db), ...extra })
  const levelPage = async (code: string, extra: { rows?: number; fields?: unknown; typed?: unknown; notice?: string } = {}) => {
    const [levels, rules] = await Promise.all([listPriceLevels(db), getLevelRules(db, code)])
    const level = levels.find((l) => l.code === code)!
    const rows = Math.min(RULE_ROWS, Math.max(rules.length + (extra.rows ?? 3), 1))
    return { level, levels, rules, ...extra, rows }
  }
  return async (app) => {
    app.get(
      '/console/price-levels',
      { config: { operationId: 'adminListPriceLevels' }, schema: { hide, querystring: Done } },
      async (request, reply) => reply.page('price-levels.eta', await listPage({ notice: noticeOf(request.query) })),
    )
    app.post(
      '/console/price-levels',
      { config: { operationId: 'adminCreatePriceLevel' }, schema: { hide, body: Form({ code: Text(32), ...LevelFields }) } },
      async (request, reply) => {
        const b = request.body
        try {
          const body = asApiBody<LevelBody>(LevelBodySchema, { code: b.code.trim(), ...levelValues(b) })
          const created = await createPriceLevel(db, body)
          return reply.redirect(`/console/price-levels/${created.code}?done=level`, 303)
        } catch (error) {
          const refused = formRefusal(error, request.consoleLang)
          if (!refused) throw error
          return reply.status(refused.status).page('price-levels.eta', await listPage({ fields: refused.fields, typed: b }))
        }
      },
    )
    app.get(
      '/console/price-levels/:code',
      { config: { operationId: 'adminListLevelRules' }, schema: { hide, params: CodeParam, querystring: LevelPage } },
      async (request, reply) => {
        await getPriceLevel(db, request.params.code)
        const page = await levelPage(request.params.code, { rows: request.query.rows, notice: noticeOf(request.query) })
        return reply.page('price-level.eta', page)
      },
    )
    app.post(
      '/console/price-levels/:code',
      { config: { operationId: 'adminUpdatePriceLevel' }, schema: { hide, params: CodeParam, body: Form(LevelFields) } },
      async (request, reply) => {
        const { code } = request.params
        try {
          await updatePriceLevel(db, code, asApiBody<LevelPatch>(LevelChangesBody, levelValues(request.body)))
          return reply.redirect(`/console/price-levels/${code}?done=level`, 303)
        } catch (error) {
          const refused = formRefusal(error, request.consoleLang)
          if (!refused) throw error
          return reply
            .status(refused.status)
            .page('price-level.eta', await levelPage(code, { fields: refused.fields, typed: { level: request.body } }))
        }
      },
    )
    // The whole set, as PUT /price-levels/{code}/rules: a blank or ticked row is left out; errors name the form's row.
    app.post(
      '/console/price-levels/:code/rules',
      { config: { operationId: 'adminPutLevelRules' }, schema: { hide, params: CodeParam, body: Form(RuleFields) } },
      async (request, reply) => {
        const { code } = request.params
        const b = request.body as Record<string, string | undefined>
        const kept: number[] = []
        try {
          const rules = Array.from({ length: RULE_ROWS }, (_, i) => i).flatMap((i) => {
            const scope = blankToUndefined(b[`scope_${i}`])
            if (checked(b[`remove_${i}`]) || scope === undefined) return []
            kept.push(i)
            return [
              {
                scope,
                category_id: wholeNumber(`rules.${i}.category_id`, b[`category_id_${i}`]),
                brand: blankToUndefined(b[`brand_${i}`]),
                item_id: wholeNumber(`rules.${i}.item_id`, b[`item_id_${i}`]),
                percent: percentOf(`rules.${i}.percent`, b[`percent_${i}`]),
                flat: wholeNumber(`rules.${i}.flat`, b[`flat_${i}`]),
                round_to: wholeNumber(`rules.${i}.round_to`, b[`round_to_${i}`]),
              },
            ]
          })
          await replaceLevelRules(db, code, asApiBody<{ rules: LevelRuleBody[] }>(RulesBody, { rules: rules.map(clean) }).rules)
          return reply.redirect(`/console/price-levels/${code}?done=rules`, 303)
        } catch (error) {
          const refused = formRefusal(error, request.consoleLang)
          if (!refused) throw error
          // rules.<n> of the set sent is the form's row kept[n].
          const fields = Object.fromEntries(
            Object.entries(refused.fields).map(([k, v]) => [k.replace(/^rules\.(\d+)/, (_, n) => `rules.${kept[Number(n)] ?? n}`), v]),
          )
          const typed = Array.from({ length: RULE_ROWS }, (_, i) =>
            Object.fromEntries(RULE_PARTS.map((part) => [part, b[`${part}_${i}`] ?? ''])),
          ).filter((row) => RULE_PARTS.some((part) => row[part] !== ''))
          return reply.status(refused.status).page('price-level.eta', await levelPage(code, { fields, typed: { rules: typed } }))
        }
      },
    )
    // One level's price of the item by hand, as PUT /items/{id}/level-prices; blank: back to the level's rules.
    app.post(
      '/console/items/:id/level-prices',
      {
        config: { operationId: 'adminPutItemLevelPrices' },
        schema: { hide, params: IdParam, body: Form({ level: Text(32), price: Optional(Text(20)) }) },
      },
      async (request, reply) => {
        const { id } = request.params
        const { level, price } = request.body
        try {
          const body = asApiBody<Record<string, number | null>>(LevelPricesBody, { [level]: wholeNumber(level, price) ?? null })
          await setItemLevelPrices(db, id, body)
          return reply.redirect(`/console/items/${id}?done=level-price#level-prices`, 303)
        } catch (error) {
          const refused = formRefusal(error, request.consoleLang)
          if (!refused) throw error
          const [item, levels] = await Promise.all([getAdminItem(db, id), getItemLevelPrices(db, id)])
          return reply.status(refused.status).page('item.eta', { item, levels, fields: refused.fields, typed: { [level]: price } })
        }
      },
    )
  }
}

// A form row's blanks are left out rather than sent as undefined.
const clean = (rule: Record<string, unknown>) => Object.fromEntries(Object.entries(rule).filter(([, v]) => v !== undefined))
