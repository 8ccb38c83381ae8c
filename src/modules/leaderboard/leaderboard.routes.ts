import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { Leaders, MonthQuery, Profile } from './leaderboard.schemas.js'
import { profile, topTen } from './leaderboard.service.js'
import { LEADERBOARD_DOCS } from './leaderboard.openapi.js'

export function leaderboardRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/leaderboard/profile',
      {
        schema: {
          tags: ['leaderboard'],
          summary: 'The caller’s rank, completed transactions and points for a month (default: the current one)',
          querystring: MonthQuery,
          ...operation('reseller', LEADERBOARD_DOCS.getLeaderboardProfile, { 200: Profile }),
        },
      },
      async (request) => ok(await profile(ctx.preparedRead, ctx.leaderboard, request.account.id, request.query.month)),
    )
    app.get(
      '/leaderboard',
      {
        schema: {
          tags: ['leaderboard'],
          summary: 'The top ten accounts of a month by points, names masked (default: the current month)',
          querystring: MonthQuery,
          ...operation('reseller', LEADERBOARD_DOCS.listLeaderboard, { 200: Leaders }),
        },
      },
      async (request) => ok(await topTen(ctx.preparedRead, request.query.month)),
    )
  }
}
