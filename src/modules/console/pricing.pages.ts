import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { IdParam } from '../../http/schemas.js'
import { listProviders } from '../catalog/index.js'
import {
  deletePricingRule,
  getItemSources,
  listPricingRules,
  putItemSources,
  putPricingRule,
  RuleBody,
  SourcesBody,
} from '../suppliers/index.js'
import { Form, Optional, Text, asApiBody, blankToUndefined, decimal, noticeOf, wholeNumber } from './form.js'

const hide = true
const Done = Type.Object({ done: Optional(Type.String({ maxLength: 20 })) })
/** Rows the sources form takes: as many as an item may have (SourcesBody's limit). */
export const SOURCE_ROWS = 20

const RuleForm = {
  scope: Text(10),
  provider: Optional(Text(64)),
  category: Optional(Text(191)),
  brand: Optional(Text(191)),
  item_id: Optional(Text(16)),
  percent: Text(16),
  flat: Optional(Text(16)),
  round_to: Optional(Text(5)),
  min_margin: Optional(Text(16)),
}
const SourceFields = Object.fromEntries(
  Array.from({ length: SOURCE_ROWS }, (_, i) => [
    [`provider_${i}`, Optional(Text(64))],
    [`code_${i}`, Optional(Text(191))],
    [`priority_${i}`, Optional(Text(5))],
    [`remove_${i}`, Optional(Text(5))],
  ]).flat(),
)

/** Pricing rules (list, add or change by scope, delete) and an item's sources by priority (docs/design.md §11b). */
export function pricingPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get(
      '/console/pricing',
      { config: { operationId: 'adminListPricingRules' }, schema: { hide, querystring: Done } },
      async (request, reply) => {
        const [rules, providers] = await Promise.all([listPricingRules(db), listProviders(db)])
        return reply.page('pricing.eta', { rules, providers, notice: noticeOf(request.query) })
      },
    )
    // The same as PUT /pricing-rules: the rule with this scope key is set, created if new, and its items repriced.
    app.post(
      '/console/pricing',
      { config: { operationId: 'adminPutPricingRule' }, schema: { hide, body: Form(RuleForm) } },
      async (request, reply) => {
        const b = request.body
        const body = asApiBody<Parameters<typeof putPricingRule>[1]>(RuleBody, {
          scope: b.scope,
          provider: blankToUndefined(b.provider),
          category: blankToUndefined(b.category),
          brand: blankToUndefined(b.brand),
          item_id: wholeNumber('item_id', b.item_id),
          percent: decimal('percent', b.percent) ?? 0,
          flat: wholeNumber('flat', b.flat),
          round_to: wholeNumber('round_to', b.round_to),
          min_margin: wholeNumber('min_margin', b.min_margin),
        })
        await putPricingRule(db, body)
        return reply.redirect('/console/pricing?done=rule', 303)
      },
    )
    app.post(
      '/console/pricing/:id/delete',
      { config: { operationId: 'adminDeletePricingRule' }, schema: { hide, params: IdParam } },
      async (request, reply) => {
        await deletePricingRule(db, request.params.id)
        return reply.redirect('/console/pricing?done=deleted', 303)
      },
    )

    app.get(
      '/console/items/:id/sources',
      { config: { operationId: 'adminGetItemSources' }, schema: { hide, params: IdParam, querystring: Done } },
      async (request, reply) => {
        const [sources, providers] = await Promise.all([getItemSources(db, request.params.id), listProviders(db)])
        // Its sources and three blank rows to add more.
        const rows = Math.min(SOURCE_ROWS, sources.sources.length + 3)
        return reply.page('item-sources.eta', { sources, providers, rows, notice: noticeOf(request.query) })
      },
    )
    // The same as PUT /items/{id}/sources: the whole list replaced; a blank or ticked row is left out.
    app.post(
      '/console/items/:id/sources',
      { config: { operationId: 'adminPutItemSources' }, schema: { hide, params: IdParam, body: Form(SourceFields) } },
      async (request, reply) => {
        const b = request.body as Record<string, string | undefined>
        const sources = Array.from({ length: SOURCE_ROWS }, (_, i) => i).flatMap((i) => {
          const provider = blankToUndefined(b[`provider_${i}`])
          const code = blankToUndefined(b[`code_${i}`])
          if (b[`remove_${i}`] === 'on' || (provider === undefined && code === undefined)) return []
          return [{ provider, code, priority: wholeNumber(`sources.${i}.priority`, b[`priority_${i}`]) ?? i + 1 }]
        })
        await putItemSources(
          db,
          request.params.id,
          asApiBody<{ sources: Parameters<typeof putItemSources>[2] }>(SourcesBody, { sources }).sources,
        )
        return reply.redirect(`/console/items/${request.params.id}/sources?done=sources`, 303)
      },
    )
  }
}
