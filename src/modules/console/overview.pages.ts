import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { storeOverview } from '../admin/overview.service.js'

/** The overview: the same figures as GET /api/admin/v1/overview; htmx refreshes them in place. */
export function overviewPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const hide = { schema: { hide: true } }
  return async (app) => {
    app.get('/console', hide, async (_request, reply) =>
      reply.page('overview.eta', { overview: await storeOverview(ctx.db, ctx.config.leaderboardTz) }),
    )
    app.get('/console/overview/figures', hide, async (_request, reply) =>
      reply.page('overview-figures.eta', { overview: await storeOverview(ctx.db, ctx.config.leaderboardTz) }),
    )
  }
}
