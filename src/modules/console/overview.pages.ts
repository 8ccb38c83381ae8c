import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import type { Database } from '../../db/database.js'
import * as accounts from '../accounts/index.js'
import { storeOverview } from '../admin/index.js'
import { listOperatorItems } from '../catalog/index.js'
import { listChannels } from '../topups/index.js'
import { hasOperators } from '../team/index.js'

/** A new store's first steps, each done or not: something to sell, a reseller, money to buy with. */
async function firstSteps(db: Database, balancesHeld: number) {
  const [items, resellers, channels] = await Promise.all([
    listOperatorItems(db, { page: 1, perPage: 1 }).then((r) => Number(r.total)),
    accounts.listAccounts(db, { page: 1, perPage: 1 }).then((r) => Number(r.total)),
    listChannels(db).then((r) => r.length),
  ])
  const steps = { items: items > 0, resellers: resellers > 0, money: balancesHeld > 0 || channels > 0 }
  return Object.values(steps).every(Boolean) ? undefined : steps
}

/** The overview: the same figures as GET /api/admin/v1/overview; htmx refreshes them in place. */
export function overviewPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const hide = { schema: { hide: true }, config: { operationId: 'adminOverview' } }
  return async (app) => {
    app.get('/console', hide, async (request, reply) => {
      const overview = await storeOverview(request.readDb, ctx.config.leaderboardTz)
      // The admin token of a store without operators is asked for the first owner (docs/design.md §11d).
      const firstOwner = request.consoleSession?.operator === undefined && !(await hasOperators(ctx.db))
      return reply.page('overview.eta', { overview, firstOwner, steps: await firstSteps(ctx.db, Number(overview.balances_held)) })
    })
    app.get('/console/overview/figures', hide, async (request, reply) =>
      reply.page('overview-figures.eta', { overview: await storeOverview(request.readDb, ctx.config.leaderboardTz) }),
    )
  }
}
