import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { pageWindow } from '../../http/paging.js'
import { operation } from '../../http/operation.js'
import { Ok } from '../../http/schemas.js'
import { webhookDocs } from './receiver-docs.js'
import * as S from './webhooks.schemas.js'
import { deliveriesOf, generateSecret, redeliver, sendTest, settingsOf, updateSettings } from './webhooks.service.js'
import { WEBHOOK_DOCS } from './webhooks.openapi.js'

const tags = ['webhooks']

/** The reseller's webhook settings, test callback, docs and delivery log (docs/design.md §8). */
export function webhookRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  const production = ctx.config.appEnv === 'production'
  const docs = webhookDocs(ctx.config.webhookTimeoutMs, ctx.config.webhookUserAgent)
  const testDeps = {
    vault: ctx.vault,
    webhookTransport: ctx.webhookTransport,
    clock: ctx.clock,
    production,
    userAgent: ctx.config.webhookUserAgent,
  }
  return async (app) => {
    app.get(
      '/webhook',
      {
        schema: {
          tags,
          summary: 'Webhook settings (never the secret)',
          ...operation('reseller', WEBHOOK_DOCS.getWebhookSettings, { 200: Ok(S.WebhookSettings) }),
        },
      },
      async (request) => ok(await settingsOf(db, request.account.id)),
    )
    app.put(
      '/webhook',
      {
        schema: {
          tags,
          summary: 'Set the callback URL and/or switch webhooks on or off',
          body: S.SettingsBody,
          ...operation('reseller', WEBHOOK_DOCS.updateWebhookSettings, { 200: Ok(S.WebhookSettings) }),
        },
      },
      async (request) => ok(await updateSettings(db, production, request.account.id, request.body)),
    )
    app.post(
      '/webhook/secret',
      {
        schema: {
          tags,
          summary: 'Generate a new signing secret (shown once; the previous one stops signing at once)',
          ...operation('reseller', WEBHOOK_DOCS.rotateWebhookSecret, { 200: S.GeneratedSecret }),
        },
      },
      async (request) => ({
        status: true,
        message: 'Webhook secret generated. Store it now: it is not shown again.',
        data: { webhook_secret: await generateSecret(db, ctx.vault, request.account.id) },
      }),
    )
    app.post(
      '/webhook/test',
      {
        schema: {
          tags,
          summary: 'Send one webhook.test now and answer its outcome',
          ...operation('reseller', WEBHOOK_DOCS.sendTestWebhook, { 200: S.TestOutcome }),
        },
      },
      async (request) => ok(await sendTest(db, testDeps, request.account.id)),
    )
    app.get(
      '/webhook/docs',
      {
        schema: {
          tags,
          summary: 'Events, payloads, headers, signatures with verification code, retries',
          ...operation('reseller', WEBHOOK_DOCS.getWebhookDocs, { 200: S.WebhookDocs }),
        },
      },
      async () => ok(docs),
    )
    app.get(
      '/webhook/deliveries',
      {
        schema: {
          tags,
          summary: 'Deliveries, newest first, with every attempt',
          querystring: S.DeliveryQuery,
          ...operation('reseller', WEBHOOK_DOCS.listWebhookDeliveries, { 200: S.DeliveryList }),
        },
      },
      async (request) => {
        const { page = 1, per_page = 20, status, cursor } = request.query
        const { rows, meta } = await deliveriesOf(db, request.account.id, { status, window: pageWindow({ page, per_page, cursor }) })
        return ok(rows, meta)
      },
    )
    app.post(
      '/webhook/deliveries/:id/retry',
      {
        schema: {
          tags,
          summary: 'Redeliver: the schedule starts again, with the same webhook-id',
          params: S.DeliveryParam,
          ...operation('reseller', WEBHOOK_DOCS.retryWebhookDelivery, { 200: S.OneDelivery }),
        },
      },
      async (request) => ok(await redeliver(db, ctx.clock, request.account.id, request.params.id)),
    )
  }
}
