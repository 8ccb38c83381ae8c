import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { RESELLER_ERRORS, errors } from '../../http/schemas.js'
import { ActiveLocks, CreatedLock, LockBody, ReleasedLock, TokenParam } from './locks.schemas.js'
import { createLock, listActiveLocks, releaseLock } from './locks.service.js'

const tags = ['stock locks']
const security = [{ apiKey: [] }]

export function lockRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/item/lock',
      {
        schema: {
          tags,
          security,
          summary: 'Reserve stock for up to 10 minutes',
          description:
            'Checks: ITEM_NOT_FOUND → LOCK_NOT_REQUIRED → MINIMUM_ORDER_NOT_MET → MAX_ACTIVE_LOCKS_REACHED → INSUFFICIENT_STOCK → BALANCE_IS_INSUFFICIENT.',
          body: LockBody,
          response: { 201: CreatedLock, ...errors(400, 404, 422, ...RESELLER_ERRORS) },
        },
      },
      async (request, reply) => {
        const limits = { defaultCap: ctx.config.maxActiveLocks, fulfillable: ctx.fulfillable }
        const lock = await createLock(ctx.prepared, limits, request.account.id, request.body)
        return reply.status(201).send({ success: true as const, data: lock })
      },
    )
    app.get(
      '/item/lock',
      {
        schema: {
          tags,
          security,
          summary: 'Your active locks with their remaining time',
          response: { 200: ActiveLocks, ...errors(...RESELLER_ERRORS) },
        },
      },
      async (request) => ok(await listActiveLocks(ctx.prepared, request.account.id)),
    )
    app.delete(
      '/item/lock/:lock_token',
      {
        schema: {
          tags,
          security,
          summary: 'Release a lock: its stock is available at once',
          params: TokenParam,
          response: { 200: ReleasedLock, ...errors(404, 422, ...RESELLER_ERRORS) },
        },
      },
      async (request) => ok(await releaseLock(ctx.prepared, request.account.id, request.params.lock_token)),
    )
  }
}
