import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok, paginate } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { Ok, OkPage } from '../../http/schemas.js'
import { heldRoutes } from './held.routes.js'
import { SUPPLIER_DOCS } from './suppliers.openapi.js'
import * as S from './suppliers.schemas.js'
import { supplierChanges, supplierProducts } from './supplier-products.service.js'
import { syncProvider } from './sync.service.js'

const tags = ['operator']
const security = [{ adminToken: [] }]

/** docs/design.md §11b: a provider's price list read on demand, its products as last read, and what changed. */
export function supplierRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  const settings = {
    syncMinutes: ctx.config.supplierSyncMinutes,
    timeoutMs: ctx.config.providerTimeoutMs,
    jumpPercent: ctx.config.supplierPriceJumpPercent,
  }
  return async (app) => {
    await app.register(heldRoutes(ctx))
    app.post(
      '/providers/:code/sync',
      {
        schema: {
          tags,
          security,
          summary: 'Read the provider’s price list now (or the last read, when recent)',
          params: S.ProviderParam,
          querystring: S.SyncQuery,
          ...operation('operator', SUPPLIER_DOCS.adminSyncSupplier, { 200: Ok(S.SyncResult) }),
        },
      },
      async (request) => {
        const sync = await syncProvider(db, ctx.vault, request.params.code, { force: request.query.force ?? false }, settings)
        return ok(sync)
      },
    )
    app.get(
      '/providers/:code/products',
      {
        schema: {
          tags,
          security,
          summary: 'The provider’s products as its list last showed them',
          params: S.ProviderParam,
          querystring: S.ProductQuery,
          ...operation('operator', SUPPLIER_DOCS.adminListSupplierProducts, { 200: OkPage(S.SupplierProduct) }),
        },
      },
      async (request) => {
        const { page = 1, per_page = 100, ...filter } = request.query
        const { rows, total } = await supplierProducts(db, request.params.code, { ...filter, page, perPage: per_page })
        return ok(rows, paginate({ page, per_page }, total))
      },
    )
    app.get(
      '/providers/:code/changes',
      {
        schema: {
          tags,
          security,
          summary: 'What the syncs found changed in the provider’s list, newest first',
          params: S.ProviderParam,
          querystring: S.ChangeQuery,
          ...operation('operator', SUPPLIER_DOCS.adminListSupplierChanges, { 200: OkPage(S.SupplierChange) }),
        },
      },
      async (request) => {
        const { page = 1, per_page = 100, kind } = request.query
        const { rows, total } = await supplierChanges(db, request.params.code, { kind, page, perPage: per_page })
        return ok(rows, paginate({ page, per_page }, total))
      },
    )
  }
}
