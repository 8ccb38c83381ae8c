import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { RESELLER_ERRORS, errors, pageMeta } from '../../http/schemas.js'
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
      async (request) => ({ message: 'OK' as const, data: { balance: await getBalance(ctx.database, request.account.id) } }),
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
        const q = { ...request.query, page: request.query.page ?? 1, per_page: request.query.per_page ?? 20 }
        const { rows, total } = await listMutations(ctx.db, request.account.id, q)
        return {
          message: 'OK' as const,
          data: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
          meta: pageMeta(q.page, q.per_page, total),
        }
      },
    )
  }
}
