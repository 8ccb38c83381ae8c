import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.js'
import { pageWindow } from '../../http/paging.js'
import { PageNumber, RowId } from '../../http/schemas.js'
import { deliveriesOf, generateSecret, redeliver, sendTest, settingsOf, updateSettings } from '../webhooks/index.js'
import { ownerOnly } from './roles.js'
import { Form } from '../../http/web-pages.js'
import { fieldRefusals } from './refusals.js'
import { TEXTS } from './texts.js'

const hide = true
const SettingsForm = Form({
  callback_url: Type.String({ maxLength: 2048 }),
  webhook_enabled: Type.Optional(Type.String({ maxLength: 10 })),
})
const PageQuery = Type.Object({ page: Type.Optional(PageNumber), done: Type.Optional(Type.String({ maxLength: 20 })) })
const DeliveryParam = Type.Object({ id: RowId() })

/** Webhook settings, a new secret (shown once), a test send with its outcome, the delivery log and redelivery: the API's services. */
export function webhookPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  const production = ctx.config.appEnv === 'production'
  const testDeps = {
    vault: ctx.vault,
    webhookTransport: ctx.webhookTransport,
    clock: ctx.clock,
    production,
    userAgent: ctx.config.webhookUserAgent,
  }
  const show = async (request: FastifyRequest, reply: FastifyReply, extra: Record<string, unknown> = {}, page = 1) => {
    const accountId = request.dashboardUser.account_id
    const [settings, deliveries] = await Promise.all([
      settingsOf(db, accountId),
      deliveriesOf(db, accountId, { window: pageWindow({ page, per_page: 20 }) }),
    ])
    return reply.screen('webhook.eta', { settings, deliveries: deliveries.rows, total: deliveries.total, page, ...extra })
  }
  return async (app) => {
    app.addHook('preHandler', ownerOnly)
    app.get('/dashboard/webhook', { schema: { hide, querystring: PageQuery } }, async (request, reply) =>
      show(request, reply, { done: request.query.done }, request.query.page ?? 1),
    )
    app.post('/dashboard/webhook', { schema: { hide, body: SettingsForm } }, async (request, reply) => {
      const { callback_url, webhook_enabled } = request.body
      try {
        await updateSettings(db, production, request.dashboardUser.account_id, {
          callback_url: callback_url.trim() === '' ? null : callback_url,
          webhook_enabled: webhook_enabled === 'on',
        })
      } catch (error) {
        const errors = fieldRefusals(error, TEXTS[request.dashboardLang])
        const form = { values: { callback_url, webhook_enabled: webhook_enabled ?? '' }, errors }
        return show(request, reply.status(422), { form })
      }
      return reply.redirect('/dashboard/webhook?done=saved', 303)
    })
    app.post('/dashboard/webhook/secret', { schema: { hide } }, async (request, reply) =>
      show(request, reply, { secret: await generateSecret(db, ctx.vault, request.dashboardUser.account_id) }),
    )
    app.post('/dashboard/webhook/test', { schema: { hide } }, async (request, reply) =>
      show(request, reply, { test: await sendTest(db, testDeps, request.dashboardUser.account_id) }),
    )
    app.post('/dashboard/webhook/deliveries/:id/retry', { schema: { hide, params: DeliveryParam } }, async (request, reply) => {
      await redeliver(db, ctx.clock, request.dashboardUser.account_id, request.params.id)
      return reply.redirect('/dashboard/webhook?done=redelivered', 303)
    })
  }
}
