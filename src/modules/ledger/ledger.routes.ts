import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { pageWindow } from '../../http/paging.js'
import { RESELLER_ERRORS, errors } from '../../http/schemas.js'
import { getBalance, listMutations } from './ledger.queries.js'
import { Balance, MutationPage, MutationsQuery } from './ledger.schemas.js'

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
      async (request) => ({ message: 'OK' as const, data: { balance: await getBalance(ctx.prepared, request.account.id) } }),
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
        const { data, meta } = await listMutations(ctx.db, request.account.id, filters, pageWindow({ page, per_page, cursor }))
        return { message: 'OK' as const, data: data.map((r) => ({ ...r, created_at: r.created_at.toISOString() })), meta }
      },
    )
  }
}
