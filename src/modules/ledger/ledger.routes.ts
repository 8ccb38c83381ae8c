import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { sendKeptPage } from '../../http/kept-pages.js'
import { operation } from '../../http/operation.js'
import { pageWindow } from '../../http/paging.js'
import { Balance, MutationPage, MutationsQuery } from './ledger.schemas.js'
import * as ledger from './ledger.service.js'
import { LEDGER_DOCS } from './ledger.openapi.js'

export function ledgerRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/balance',
      {
        schema: {
          tags: ['balance'],
          summary: 'Current balance',
          ...operation('reseller', LEDGER_DOCS.getBalance, { 200: Balance }),
        },
      },
      async (request) => ok({ balance: await ledger.getBalance(ctx.accountCounters, request.account.id) }),
    )
    app.get(
      '/balance/mutations',
      {
        schema: {
          tags: ['balance'],
          summary: 'Balance mutations (the ledger), newest first',
          querystring: MutationsQuery,
          ...operation('reseller', LEDGER_DOCS.listBalanceMutations, { 200: MutationPage }),
        },
      },
      async (request, reply) => {
        const { page = 1, per_page = 20, cursor, ...filters } = request.query
        const accountId = request.account.id
        // A replica within the lag bound, or the primary: the version and its page from the same one.
        const { db, accountCounters } = ctx.listReads()
        const read = async () => {
          const { data, meta } = await ledger.listMutations(db, accountId, filters, pageWindow({ page, per_page, cursor }))
          return ok(
            data.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
            meta,
          )
        }
        if (filters.direction || filters.type) return read()
        // Bots poll the unfiltered list: answered from this process's copy while no entry was added.
        const version = String(await ledger.ledgerCount(accountCounters, accountId))
        return sendKeptPage(ctx.keptPages, reply, { list: 'ledger', accountId, page, per_page, cursor }, version, read)
      },
    )
  }
}
