import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { listActiveLocks, releaseLock } from '../locks/index.js'

const hide = true
const TokenParam = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) })

/** The account's active stock locks (the API's GET /item/lock) and their release (its DELETE). */
export function lockPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/dashboard/locks',
      { schema: { hide, querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }) } },
      async (request, reply) =>
        reply.screen('locks.eta', {
          locks: await listActiveLocks(ctx.prepared, request.dashboardUser.account_id),
          released: request.query.done === 'released',
        }),
    )
    app.post('/dashboard/locks/:token/release', { schema: { hide, params: TokenParam } }, async (request, reply) => {
      await releaseLock(ctx.prepared, request.dashboardUser.account_id, request.params.token)
      return reply.redirect('/dashboard/locks?done=released', 303)
    })
  }
}
