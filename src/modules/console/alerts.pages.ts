import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { PageNumber } from '../../http/schemas.js'
import { getChannels, listAlerts, putChannels, type ChannelsBody } from '../alerts/index.js'
import { Form, Optional, Text, blankToUndefined, checked, noticeOf } from './form.js'

const hide = true
const PER_PAGE = 50

/** Operator alerts (docs/design.md §11e): the open ones, the history, and the channels they go to (the owner's to set). */
export function alertPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db, vault } = ctx
  const production = ctx.config.appEnv === 'production'
  return async (app) => {
    app.get(
      '/console/alerts',
      {
        config: { operationId: 'adminListAlerts' },
        schema: { hide, querystring: Type.Object({ page: Optional(PageNumber), done: Optional(Type.String({ maxLength: 20 })) }) },
      },
      async (request, reply) => {
        const { page = 1 } = request.query
        // Open ones all at the top (few: one per condition and subject), the cleared ones paged below.
        const [open, history] = await Promise.all([
          listAlerts(db, { open: true }, { page: 1, per_page: 100, offset: 0 }),
          listAlerts(db, { open: false }, { page, per_page: PER_PAGE, offset: (page - 1) * PER_PAGE }),
        ])
        const link = (to: number) => `?page=${to}`
        return reply.page('alerts.eta', {
          open: open.data,
          history: history.data,
          total: history.meta.total,
          page,
          next: history.meta.next_cursor ? link(page + 1) : undefined,
          previous: page > 1 ? link(page - 1) : undefined,
          notice: noticeOf(request.query),
        })
      },
    )
    app.get('/console/alert-channels', { config: { operationId: 'adminGetAlertChannels' }, schema: { hide } }, async (_request, reply) =>
      reply.page('alert-channels.eta', { channels: await getChannels(db) }),
    )
    // The same PUT as the operator API's: blank fields clear their channel; a new webhook secret is shown on this answer only.
    app.post(
      '/console/alert-channels',
      {
        config: { operationId: 'adminPutAlertChannels' },
        schema: {
          hide,
          body: Form({
            email_to: Optional(Text(500)),
            telegram_chat_id: Optional(Text(40)),
            webhook_url: Optional(Text(2000)),
            rotate_secret: Optional(Text(10)),
          }),
        },
      },
      async (request, reply) => {
        const b = request.body
        const to = blankToUndefined(b.email_to)
        const chatId = blankToUndefined(b.telegram_chat_id)
        const url = blankToUndefined(b.webhook_url)
        const body: ChannelsBody = {
          email: to ? { to } : null,
          telegram: chatId ? { chat_id: chatId } : null,
          webhook: url ? { url, rotate_secret: checked(b.rotate_secret) } : null,
        }
        const channels = await putChannels(db, vault, production, body)
        return reply.page('alert-channels.eta', { channels, secret: channels.webhook?.secret, done: 'alert-channels' })
      },
    )
  }
}
