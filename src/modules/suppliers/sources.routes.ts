import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { IdParam, Ok } from '../../http/schemas.js'
import { SOURCE_DOCS } from './sources.openapi.js'
import * as S from './sources.schemas.js'
import { getItemSources, putItemSources } from './sources.service.js'

const tags = ['operator']
const security = [{ adminToken: [] }]

/** docs/design.md §11b: the supplier products an item is bought from, by priority. */
export function sourceRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get(
      '/items/:id/sources',
      {
        schema: {
          tags,
          security,
          summary: 'The supplier products the item is bought from',
          params: IdParam,
          ...operation('operator', SOURCE_DOCS.adminGetItemSources, { 200: Ok(S.ItemSources) }),
        },
      },
      async (request) => ok(await getItemSources(db, request.params.id)),
    )
    app.put(
      '/items/:id/sources',
      {
        schema: {
          tags,
          security,
          summary: 'Replace the supplier products the item is bought from',
          params: IdParam,
          body: S.SourcesBody,
          ...operation('operator', SOURCE_DOCS.adminPutItemSources, { 200: Ok(S.ItemSources) }),
        },
      },
      async (request) => {
        const sources = await putItemSources(db, request.params.id, request.body.sources)
        return ok(sources)
      },
    )
  }
}
