import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok, paginate } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { Ok, OkPage } from '../../http/schemas.js'
import { HELD_DOCS } from './held.openapi.js'
import * as S from './held.schemas.js'
import { decideHeldPrice, heldPrices } from './held-prices.service.js'
import { ProviderParam } from './suppliers.schemas.js'

const tags = ['operator']
const security = [{ adminToken: [] }]

/** docs/design.md §11c: the prices a sync held, and the operator's approve or reject. */
export function heldRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get(
      '/providers/:code/held',
      {
        schema: {
          tags,
          security,
          summary: 'The prices a sync held instead of applying',
          params: ProviderParam,
          querystring: S.HeldQuery,
          ...operation('operator', HELD_DOCS.adminListHeldPrices, { 200: OkPage(S.HeldPrice) }),
        },
      },
      async (request) => {
        const { page = 1, per_page = 100, status } = request.query
        const { rows, total } = await heldPrices(db, request.params.code, { status, page, perPage: per_page })
        return ok(rows, paginate({ page, per_page }, total))
      },
    )
    for (const [action, decision, docs] of [
      ['approve', 'approved', HELD_DOCS.adminApproveHeldPrice],
      ['reject', 'rejected', HELD_DOCS.adminRejectHeldPrice],
    ] as const)
      app.post(
        `/providers/:code/held/:id/${action}`,
        {
          schema: {
            tags,
            security,
            summary: action === 'approve' ? 'Apply a held price now, repricing its items' : 'Ignore a held price until the list changes it',
            params: S.HeldParam,
            ...operation('operator', docs, { 200: Ok(S.HeldDecision) }),
          },
        },
        async (request) => {
          const result = await decideHeldPrice(db, request.params.code, request.params.id, decision)
          return ok(result)
        },
      )
  }
}
