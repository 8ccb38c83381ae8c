import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { listChannels, resellerChannel } from './channels.service.js'
import { ChannelList, ChannelsQuery, CreatedTopup, TopupBody } from './topups.schemas.js'
import { createTopup } from './topups.service.js'
import { TOPUP_DOCS } from './topups.openapi.js'

const tags = ['balance']

/** Top-ups (docs/design.md §7): the payment channels and a payment link for one of them. */
export function topupRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/balance',
      {
        schema: {
          tags,
          summary: 'Top up: a payment link for an amount on a channel',
          description:
            'A payment link for `amount` Rupiah (at least 10000, within the channel’s range) on a channel. The balance is credited when the gateway reports the payment; an optional `ref_id` makes the call repeat-safe.',
          body: TopupBody,
          ...operation('reseller', TOPUP_DOCS.createTopup, { 200: CreatedTopup }),
        },
      },
      async (request) => ok(await createTopup(ctx.db, ctx, request.account.id, request.body)),
    )
    app.get(
      '/balance/channels',
      {
        schema: {
          tags,
          summary: 'Payment channels for top-ups',
          querystring: ChannelsQuery,
          ...operation('reseller', TOPUP_DOCS.listPaymentChannels, { 200: ChannelList }),
        },
      },
      async (request) => ok((await listChannels(ctx.db)).map((c) => resellerChannel(c, request.query.amount))),
    )
  }
}
