import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok, paginate } from '../../http/envelope.js'
import { ADMIN_ERRORS, IdParam, Ok, errors } from '../../http/schemas.js'
import * as S from './webhooks.schemas.js'
import { accountDeliveries, accountWebhook, redeliverForAccount } from './webhooks.service.js'

const tags = ['operator']
const security = [{ adminToken: [] }]

/** The operator's view of an account's webhooks: settings, the delivery log, redelivery. */
export function adminWebhookRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get(
      '/resellers/:id/webhook',
      {
        schema: {
          tags,
          security,
          summary: "An account's webhook settings",
          params: IdParam,
          response: { 200: Ok(S.WebhookSettings), ...errors(404, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => ok(await accountWebhook(db, request.params.id)),
    )
    app.get(
      '/resellers/:id/webhook-deliveries',
      {
        schema: {
          tags,
          security,
          summary: "An account's webhook deliveries, newest first, with every attempt",
          params: IdParam,
          querystring: S.DeliveryQuery,
          response: { 200: S.DeliveryList, ...errors(404, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => {
        const { page = 1, per_page = 20, status } = request.query
        const { rows, total } = await accountDeliveries(db, request.params.id, { page, perPage: per_page, status })
        return ok(rows, paginate({ page, per_page }, total))
      },
    )
    app.post(
      '/resellers/:id/webhook-deliveries/:delivery/retry',
      {
        schema: {
          tags,
          security,
          summary: "Redeliver one of the account's deliveries",
          params: S.AccountDeliveryParams,
          response: { 200: S.OneDelivery, ...errors(404, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => ok(await redeliverForAccount(db, request.params.id, request.params.delivery, ctx.clock)),
    )
  }
}
