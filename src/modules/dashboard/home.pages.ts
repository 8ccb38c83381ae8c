import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { pageWindow } from '../../http/paging.js'
import { getBalance } from '../ledger/index.js'
import { listPurchases } from '../orders/index.js'
import { settingsOf } from '../webhooks/index.js'

/** Home: the balance, the latest orders, and what to set up first. */
export function homePages(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/dashboard', { schema: { hide: true } }, async (request, reply) => {
      const accountId = request.dashboardUser.account_id
      const [balance, recent, webhook] = await Promise.all([
        getBalance(ctx.accountCounters, accountId),
        listPurchases(request.readDb, accountId, undefined, pageWindow({ page: 1, per_page: 5 })),
        settingsOf(ctx.db, accountId),
      ])
      return reply.screen('home.eta', { balance, orders: recent.data, ordersTotal: recent.meta.total, webhook })
    })
  }
}
