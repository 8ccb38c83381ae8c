import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { pageWindow } from '../../http/paging.js'
import { ALERT_DOCS as DOCS } from './alerts.openapi.js'
import { AlertListQuery, AlertPage, ChannelsBody, OneChannels, OneSavedChannels } from './alerts.schemas.js'
import { listAlerts } from './alerts-admin.service.js'
import { getChannels, putChannels } from './channels.service.js'

const tags = ['operator']

/** Operator alerts (docs/design.md §11e): the alerts kept, and the channels an owner sets. */
export function alertAdminRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db, vault } = ctx
  const production = ctx.config.appEnv === 'production'
  return async (app) => {
    app.get(
      '/alerts',
      {
        schema: {
          tags,
          summary: 'Alerts, open and cleared, newest first, with their deliveries',
          querystring: AlertListQuery,
          ...operation('operator', DOCS.adminListAlerts, { 200: AlertPage }),
        },
      },
      async (request) => {
        const { open, kind, page = 1, per_page = 50, cursor } = request.query
        const { data, meta } = await listAlerts(db, { open, kind }, pageWindow({ page, per_page, cursor }))
        return ok(data, meta)
      },
    )
    app.get(
      '/alert-channels',
      {
        schema: {
          tags,
          summary: 'Where alerts go: email, Telegram, a signed webhook',
          ...operation('operator', DOCS.adminGetAlertChannels, { 200: OneChannels }),
        },
      },
      async () => ok(await getChannels(db)),
    )
    app.put(
      '/alert-channels',
      {
        schema: {
          tags,
          summary: 'Set where alerts go (a webhook’s new signing secret shown once)',
          body: ChannelsBody,
          ...operation('operator', DOCS.adminPutAlertChannels, { 200: OneSavedChannels }),
        },
      },
      async (request) => ok(await putChannels(db, vault, production, request.body)),
    )
  }
}
