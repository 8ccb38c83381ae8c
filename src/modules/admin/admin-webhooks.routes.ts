import { ok, paginate } from '../../http/envelope.js'
import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ADMIN_ERRORS, IdParam, Ok, OkPage, PageNumber, RowId, StringEnum, errors } from '../../http/schemas.js'
import { storeDeliveries, updateAccountWebhook } from '../webhooks/operator-webhooks.service.js'
import { Delivery, SettingsBody, WebhookSettings } from '../webhooks/webhooks.schemas.js'

const tags = ['operator']
const security = [{ adminToken: [] }]

const StoreDelivery = Type.Composite([Delivery, Type.Object({ account_id: Type.Integer(), account_name: Type.String() })])
const StoreDeliveriesQuery = Type.Object({
  status: Type.Optional(
    StringEnum(['failing', 'pending', 'retrying', 'delivered', 'failed'], {
      description: 'default `failing`: failed (gave up) or retrying (failed at least once, trying again)',
    }),
  ),
  account_id: Type.Optional(RowId({ description: 'only this account' })),
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
})

/** The operator's webhook routes beyond the read-only ones: an account's settings changed, every account's deliveries. */
export function adminWebhookSettingsRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  const production = ctx.config.appEnv === 'production'
  return async (app) => {
    app.put(
      '/resellers/:id/webhook',
      {
        schema: {
          tags,
          security,
          summary: "Change an account's callback URL or switch its webhooks on or off",
          params: IdParam,
          body: SettingsBody,
          response: { 200: Ok(WebhookSettings), ...errors(404, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => ok(await updateAccountWebhook(db, production, request.params.id, request.body)),
    )
    app.get(
      '/webhook-deliveries',
      {
        schema: {
          tags,
          security,
          summary: "Every account's webhook deliveries, newest first (by default the failing ones)",
          querystring: StoreDeliveriesQuery,
          response: { 200: OkPage(StoreDelivery), ...errors(422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => {
        const { status, account_id, page = 1, per_page = 20 } = request.query
        const { rows, total } = await storeDeliveries(db, { status, accountId: account_id, page, perPage: per_page })
        return ok(rows, paginate({ page, per_page }, total))
      },
    )
  }
}
