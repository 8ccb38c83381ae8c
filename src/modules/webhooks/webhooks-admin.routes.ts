import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok, paginate } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { pageWindow } from '../../http/paging.js'
import { IdParam, Ok, OkPage, PageNumber, RowId, StringEnum } from '../../http/schemas.js'
import { storeDeliveries, updateAccountWebhook } from './operator-webhooks.service.js'
import * as S from './webhooks.schemas.js'
import { accountDeliveries, accountWebhook, redeliverForAccount } from './webhooks.service.js'
import { ADMIN_WEBHOOK_DOCS } from './webhooks-admin.openapi.js'

const tags = ['operator']

/** The operator's view of an account's webhooks: its settings read and changed, the delivery log, redelivery. */
export function adminWebhookRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  const production = ctx.config.appEnv === 'production'
  return async (app) => {
    app.get(
      '/resellers/:id/webhook',
      {
        schema: {
          tags,
          summary: "An account's webhook settings",
          params: IdParam,
          ...operation('operator', ADMIN_WEBHOOK_DOCS.adminGetWebhook, { 200: Ok(S.WebhookSettings) }),
        },
      },
      async (request) => ok(await accountWebhook(db, request.params.id)),
    )
    app.put(
      '/resellers/:id/webhook',
      {
        schema: {
          tags,
          summary: "Change an account's callback URL or switch its webhooks on or off",
          params: IdParam,
          body: S.SettingsBody,
          ...operation('operator', ADMIN_WEBHOOK_DOCS.adminUpdateWebhook, { 200: Ok(S.WebhookSettings) }),
        },
      },
      async (request) => ok(await updateAccountWebhook(db, production, request.params.id, request.body)),
    )
    app.get(
      '/resellers/:id/webhook-deliveries',
      {
        schema: {
          tags,
          summary: "An account's webhook deliveries, newest first, with every attempt",
          params: IdParam,
          querystring: S.DeliveryQuery,
          ...operation('operator', ADMIN_WEBHOOK_DOCS.adminListWebhookDeliveries, { 200: S.DeliveryList }),
        },
      },
      async (request) => {
        const { page = 1, per_page = 20, status, cursor } = request.query
        const { rows, meta } = await accountDeliveries(db, request.params.id, { status, window: pageWindow({ page, per_page, cursor }) })
        return ok(rows, meta)
      },
    )
    app.post(
      '/resellers/:id/webhook-deliveries/:delivery/retry',
      {
        schema: {
          tags,
          summary: "Redeliver one of the account's deliveries",
          params: S.AccountDeliveryParams,
          ...operation('operator', ADMIN_WEBHOOK_DOCS.adminRetryWebhookDelivery, { 200: S.OneDelivery }),
        },
      },
      async (request) => ok(await redeliverForAccount(db, request.params.id, request.params.delivery, ctx.clock)),
    )
  }
}

const StoreDelivery = Type.Composite([S.Delivery, Type.Object({ account_id: Type.Integer(), account_name: Type.String() })])
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

/**
 * Every account's deliveries, the overview's queue. A plugin apart from adminWebhookRoutes only so
 * that server.ts registers it where the OpenAPI document has always listed it.
 */
export function storeWebhookDeliveryRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get(
      '/webhook-deliveries',
      {
        schema: {
          tags,
          summary: "Every account's webhook deliveries, newest first (by default the failing ones)",
          querystring: StoreDeliveriesQuery,
          ...operation('operator', ADMIN_WEBHOOK_DOCS.adminListStoreWebhookDeliveries, { 200: OkPage(StoreDelivery) }),
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
