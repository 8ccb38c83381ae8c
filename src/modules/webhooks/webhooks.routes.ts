import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok, paginate } from '../../http/envelope.js'
import { RESELLER_ERRORS, errors, Ok } from '../../http/schemas.js'
import { webhookDocs } from './receiver-docs.js'
import * as S from './webhooks.schemas.js'
import { deliveriesOf, generateSecret, redeliver, sendTest, settingsOf, updateSettings } from './webhooks.service.js'

const tags = ['webhooks']
const security = [{ apiKey: [] }]

/** The reseller's webhook settings, test callback, docs and delivery log (DESIGN §8). */
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
          security,
          summary: 'Webhook settings (never the secret)',
          response: { 200: Ok(S.WebhookSettings), ...errors(...RESELLER_ERRORS) },
        },
      },
      async (request) => ok(await settingsOf(db, request.account.id)),
    )
    app.put(
      '/webhook',
      {
        schema: {
          tags,
          security,
          summary: 'Set the callback URL and/or switch webhooks on or off',
          body: S.SettingsBody,
          response: { 200: Ok(S.WebhookSettings), ...errors(400, 422, ...RESELLER_ERRORS) },
        },
      },
      async (request) => ok(await updateSettings(db, production, request.account.id, request.body)),
    )
    app.post(
      '/webhook/secret',
      {
        schema: {
          tags,
          security,
          summary: 'Generate a new signing secret (shown once; the previous one stops signing at once)',
          response: { 200: S.GeneratedSecret, ...errors(...RESELLER_ERRORS) },
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
          security,
          summary: 'Send one webhook.test now and answer its outcome',
          response: { 200: S.TestOutcome, ...errors(422, ...RESELLER_ERRORS) },
        },
      },
      async (request) => ok(await sendTest(db, testDeps, request.account.id)),
    )
    app.get(
      '/webhook/docs',
      {
        schema: {
          tags,
          security,
          summary: 'Events, payloads, headers, signatures with verification code, retries',
          response: { 200: S.WebhookDocs, ...errors(...RESELLER_ERRORS) },
        },
      },
      async () => ok(docs),
    )
    app.get(
      '/webhook/deliveries',
      {
        schema: {
          tags,
          security,
          summary: 'Deliveries, newest first, with every attempt',
          querystring: S.DeliveryQuery,
          response: { 200: S.DeliveryList, ...errors(422, ...RESELLER_ERRORS) },
        },
      },
      async (request) => {
        const { page = 1, per_page = 20, status } = request.query
        const { rows, total } = await deliveriesOf(db, request.account.id, { page, perPage: per_page, status })
        return ok(rows, paginate({ page, per_page }, total))
      },
    )
    app.post(
      '/webhook/deliveries/:id/retry',
      {
        schema: {
          tags,
          security,
          summary: 'Redeliver: the schedule starts again, with the same webhook-id',
          params: S.DeliveryParam,
          response: { 200: S.OneDelivery, ...errors(404, 422, ...RESELLER_ERRORS) },
        },
      },
      async (request) => ok(await redeliver(db, ctx.clock, request.account.id, request.params.id)),
    )
  }
}
