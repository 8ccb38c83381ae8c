import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { IdParam, RESELLER_ERRORS, errors } from '../../http/schemas.js'
import { CatalogPage, CatalogQuery, ItemDetail } from './catalog.schemas.js'
import { getCatalogItem, listCatalog } from './catalog.service.js'

export function catalogRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/item',
      {
        schema: {
          tags: ['catalog'],
          summary: 'The catalog: categories → products → variants; delta sync with updated_since',
          security: [{ apiKey: [] }],
          querystring: CatalogQuery,
          response: { 200: CatalogPage, ...errors(422, ...RESELLER_ERRORS) },
        },
      },
      async (request) => listCatalog(ctx.db, request.query),
    )
    app.get(
      '/item/:id',
      {
        schema: {
          tags: ['catalog'],
          summary: 'One variant',
          security: [{ apiKey: [] }],
          params: IdParam,
          response: { 200: ItemDetail, ...errors(404, 422, ...RESELLER_ERRORS) },
        },
      },
      async (request) => ({ message: 'OK' as const, data: await getCatalogItem(ctx.db, request.params.id) }),
    )
  }
}
