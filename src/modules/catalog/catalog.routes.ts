import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { IdParam } from '../../http/schemas.js'
import { CatalogPage, CatalogQuery, ItemDetail } from './catalog.schemas.js'
import { cachedBody } from './catalog-snapshot.js'
import { getCatalogItem, listCatalog } from './catalog.service.js'
import { CATALOG_DOCS } from './catalog.openapi.js'

export function catalogRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/item',
      {
        schema: {
          tags: ['catalog'],
          summary: 'The catalog: categories → products → variants; delta sync with updated_since',
          description:
            'The catalog as categories → products → variants (a variant is what you buy: its `id` is `item_id`). Page with `page` and `per_page` (≤ 500, or `all`); filter by `category` (its `slug`, id or name) or search with `search`. For delta sync, send the `server_time` of your last answer as `updated_since` (a date-time, or a date meaning its midnight UTC): only variants changed since come back, deactivated ones included (`status: off`).',
          querystring: CatalogQuery,
          ...operation('reseller', CATALOG_DOCS.listItems, { 200: CatalogPage }),
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
          params: IdParam,
          ...operation('reseller', CATALOG_DOCS.getItem, { 200: ItemDetail }),
        },
      },
      async (request) => ok(await getCatalogItem(ctx.db, request.params.id)),
    )
  }
}
