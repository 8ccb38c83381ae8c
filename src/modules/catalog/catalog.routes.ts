import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { IdParam, RESELLER_ERRORS, errors } from '../../http/schemas.js'
import { CatalogPage, CatalogQuery, ItemDetail } from './catalog.schemas.js'
import { cachedBody } from './catalog-snapshot.js'
import { getCatalogItem, listCatalog } from './catalog.service.js'

export function catalogRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/item',
      {
        schema: {
          tags: ['catalog'],
          summary: 'The catalog: categories → products → variants; delta sync with updated_since',
          description:
            'Served from a snapshot at most a second old: stock may lag committed sales by up to a second (the purchase is where stock is exact). server_time is the cursor of that snapshot: pass it as updated_since and the delta misses nothing.',
          security: [{ apiKey: [] }],
          querystring: CatalogQuery,
          response: { 200: CatalogPage, ...errors(422, ...RESELLER_ERRORS) },
        },
      },
      async (request, reply) => {
        const snapshot = await ctx.catalog.current()
        const q = request.query
        const key = JSON.stringify([q.page, q.per_page, q.updated_since, q.category, q.search])
        // Serialized once per snapshot and query (by the route's own serializer); the bytes are sent as they are.
        const body = cachedBody(snapshot, key, () => reply.serialize(listCatalog(snapshot, q)) as string)
        return reply.type('application/json; charset=utf-8').send(body as never)
      },
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
      async (request) => ok(await getCatalogItem(ctx.db, request.params.id)),
    )
  }
}
