import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { pageWindow } from '../../http/paging.js'
import { RESELLER_ERRORS, errors } from '../../http/schemas.js'
import { Balance, MutationPage, MutationsQuery } from './ledger.schemas.js'
import * as ledger from './ledger.service.js'

export function ledgerRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/balance',
      {
        schema: {
          tags: ['balance'],
          summary: 'Current balance',
          security: [{ apiKey: [] }],
          response: { 200: Balance, ...errors(...RESELLER_ERRORS) },
        },
      },
      async (request) => ok({ balance: await ledger.getBalance(ctx.prepared, request.account.id) }),
    )
    app.get(
      '/balance/mutations',
      {
        schema: {
          tags: ['balance'],
          summary: 'Balance mutations (the ledger), newest first',
          security: [{ apiKey: [] }],
          querystring: MutationsQuery,
          response: { 200: MutationPage, ...errors(422, ...RESELLER_ERRORS) },
        },
      },
      async (request) => {
        const { page = 1, per_page = 20, cursor, ...filters } = request.query
        const { data, meta } = await ledger.listMutations(ctx.db, request.account.id, filters, pageWindow({ page, per_page, cursor }))
        return ok(
          data.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
          meta,
        )
      },
    )
  }
}
