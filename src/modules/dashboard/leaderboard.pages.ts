import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { profile, topTen } from '../leaderboard/index.js'

/** This month's standing (the API's /leaderboard/profile) and the top ten, names masked (its /leaderboard). */
export function leaderboardPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/dashboard/leaderboard', { schema: { hide: true } }, async (request, reply) => {
      const [own, leaders] = await Promise.all([
        profile(ctx.preparedRead, ctx.leaderboard, request.dashboardUser.account_id, undefined),
        topTen(ctx.preparedRead, undefined),
      ])
      return reply.screen('leaderboard.eta', { own, leaders })
    })
  }
}
