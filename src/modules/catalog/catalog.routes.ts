import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { IdParam } from '../../http/schemas.js'
import { CatalogPage, CatalogQuery, ItemDetail } from './catalog.schemas.js'
import { cachedBody } from './catalog-snapshot.js'
import { deltaSince, getCatalogItem, listCatalog } from './catalog.service.js'
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
            'The catalog as categories → products → variants (a variant is what you buy: its `id` is `item_id`). Page with `page` and `per_page` (≤ 500, or `all`); filter by `category` (its `slug`, id or name) or search with `search`. For delta sync, send the `server_time` of your last answer as `updated_since` (a date-time, or a date meaning its midnight UTC): only variants changed since come back, deactivated ones included (`status: off`). Prices (and `status`, which the floor decides at that price) are your account’s price level’s; after your level changes, the next delta answers the full catalog once (`meta.is_delta: false`).',
          querystring: CatalogQuery,
          ...operation('reseller', CATALOG_DOCS.listItems, { 200: CatalogPage }),
        },
      },
      async (request, reply) => {
        const q = request.query
        const reader = request.account
        const since = deltaSince(q, reader)
        // A delta from before the account's level moved answers in full, from a snapshot whose cursor is past the move.
        const movedSince = q.updated_since !== undefined && since === undefined ? (reader.price_level_since ?? undefined) : undefined
        const snapshot = await ctx.catalog.current(movedSince)
        const level = reader.price_level_id
        const key = JSON.stringify([level, q.page, q.per_page, since?.getTime(), q.category, q.search])
        // Serialized once per snapshot, level and query (by the route's own serializer); the bytes are sent as they are.
        const body = cachedBody(snapshot, key, () => reply.serialize(listCatalog(snapshot, q, level, since)) as string)
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
      async (request) => ok(await getCatalogItem(ctx.dbRead, request.params.id, request.account.price_level_id)),
    )
  }
}
