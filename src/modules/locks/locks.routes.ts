import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { ActiveLocks, CreatedLock, LockBody, ReleasedLock, TokenParam } from './locks.schemas.js'
import { createLock, listActiveLocks, releaseLock } from './locks.service.js'
import { LOCK_DOCS } from './locks.openapi.js'

const tags = ['stock locks']

export function lockRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/item/lock',
      {
        schema: {
          tags,
          summary: 'Reserve stock for up to 10 minutes',
          description:
            'Reserves stock of one item for `lock_duration` seconds (60–600, default 600). Buy it with `POST /api/v1/trx` and `lock_token`, with exactly one cart line of the same item and quantity. Checks in order: item, unlimited stock (no lock needed), minimum order, your cap of active locks, stock, balance. A lock is a promise to buy: your active locks, this one included, may be worth (current price × quantity) at most your balance, which is checked, not reserved.',
          body: LockBody,
          ...operation('reseller', LOCK_DOCS.createLock, { 201: CreatedLock }),
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
          summary: 'Your active locks with their remaining time',
          ...operation('reseller', LOCK_DOCS.listLocks, { 200: ActiveLocks }),
        },
      },
      async (request) => ok(await listActiveLocks(ctx.prepared, request.account.id)),
    )
    app.delete(
      '/item/lock/:lock_token',
      {
        schema: {
          tags,
          summary: 'Release a lock: its stock is available at once',
          params: TokenParam,
          ...operation('reseller', LOCK_DOCS.releaseLock, { 200: ReleasedLock }),
        },
      },
      async (request) => ok(await releaseLock(ctx.prepared, request.account.id, request.params.lock_token)),
    )
  }
}
