import { ok } from '../../http/envelope.js'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { RESELLER_ERRORS, errors } from '../../http/schemas.js'
import { Leaders, MonthQuery, Profile } from './leaderboard.schemas.js'
import { profile, topTen } from './leaderboard.service.js'

export function leaderboardRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/leaderboard/profile',
      {
        schema: {
          tags: ['leaderboard'],
          summary: 'The caller’s rank, completed transactions and points for a month (default: the current one)',
          security: [{ apiKey: [] }],
          querystring: MonthQuery,
          response: { 200: Profile, ...errors(422, ...RESELLER_ERRORS) },
        },
      },
      async (request) => ok(await profile(ctx.prepared, ctx.leaderboard, request.account.id, request.query.month)),
    )
    app.get(
      '/leaderboard',
      {
        schema: {
          tags: ['leaderboard'],
          summary: 'The top ten accounts of a month by points, names masked (default: the current month)',
          security: [{ apiKey: [] }],
          querystring: MonthQuery,
          response: { 200: Leaders, ...errors(422, ...RESELLER_ERRORS) },
        },
      },
      async (request) => ok(await topTen(ctx.prepared, request.query.month)),
    )
  }
}
