import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { IdParam, Ok } from '../../http/schemas.js'
import { importProducts } from './import.service.js'
import { PRICING_DOCS } from './pricing.openapi.js'
import { deletePricingRule, listPricingRules, putPricingRule } from './pricing-rules.service.js'
import * as S from './pricing.schemas.js'
import { ProviderParam } from './suppliers.schemas.js'

const tags = ['operator']
const security = [{ adminToken: [] }]

/** docs/design.md §11b: items imported from a supplier's list, and the pricing rules that price them. */
export function pricingRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.post(
      '/providers/:code/import',
      {
        schema: {
          tags,
          security,
          summary: 'Create items from the provider’s products (by category, brand, type or codes)',
          params: ProviderParam,
          body: S.ImportBody,
          ...operation('operator', PRICING_DOCS.adminImportSupplierProducts, { 200: Ok(S.ImportResult) }),
        },
      },
      async (request) => ok(await importProducts(db, request.params.code, request.body)),
    )
    app.get(
      '/pricing-rules',
      {
        schema: {
          tags,
          security,
          summary: 'The pricing rules',
          ...operation('operator', PRICING_DOCS.adminListPricingRules, { 200: Ok(Type.Array(S.Rule)) }),
        },
      },
      async () => ok(await listPricingRules(db)),
    )
    app.put(
      '/pricing-rules',
      {
        schema: {
          tags,
          security,
          summary: 'Set a pricing rule (by its scope key) and reprice what it governs',
          body: S.RuleBody,
          ...operation('operator', PRICING_DOCS.adminPutPricingRule, { 200: Ok(S.RuleChange) }),
        },
      },
      async (request) => ok(await putPricingRule(db, request.body)),
    )
    app.delete(
      '/pricing-rules/:id',
      {
        schema: {
          tags,
          security,
          summary: 'Delete a pricing rule and reprice what it governed',
          params: IdParam,
          ...operation('operator', PRICING_DOCS.adminDeletePricingRule, { 200: Ok(S.RuleDeleted) }),
        },
      },
      async (request) => ok(await deletePricingRule(db, request.params.id)),
    )
  }
}
