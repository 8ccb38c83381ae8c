import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { RESELLER_ERRORS, errors } from '../../http/schemas.js'
import { listChannels, resellerChannel } from './channels.service.js'
import { ChannelList, ChannelsQuery, CreatedTopup, TopupBody } from './topups.schemas.js'
import { createTopup } from './topups.service.js'

const tags = ['balance']
const security = [{ apiKey: [] }]

/** Top-ups (DESIGN §7): the payment channels and a payment link for one of them. */
export function topupRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/balance',
      {
        schema: {
          tags,
          security,
          summary: 'Top up: a payment link for an amount on a channel',
          description:
            'Answers a pending top-up: `payment_url`, `amount`, `expires_at`, `reference`, `invoice`, `fee` (what the payer adds) and `total`. Paid, it credits the balance once. `ref_id` shares the namespace of purchases: a used one answers REF_ID_ALREADY_EXIST with that transaction.',
          body: TopupBody,
          response: { 200: CreatedTopup, ...errors(422, ...RESELLER_ERRORS) },
        },
      },
      async (request) => ok(await createTopup(ctx.db, ctx, request.account.id, request.body)),
    )
    app.get(
      '/balance/channels',
      {
        schema: {
          tags,
          security,
          summary: 'Payment channels for top-ups',
          querystring: ChannelsQuery,
          response: { 200: ChannelList, ...errors(422, ...RESELLER_ERRORS) },
        },
      },
      async (request) => ok((await listChannels(ctx.db)).map((c) => resellerChannel(c, request.query.amount))),
    )
  }
}
