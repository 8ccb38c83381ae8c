import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { invalidField } from '../../errors.js'
import { createTopup, listChannels, resellerChannel } from '../topups/index.js'
import { Form } from '../../http/web-pages.js'

const hide = true
const Amount = Type.String({ maxLength: 20 })
const TopupQuery = Type.Object({ amount: Type.Optional(Amount) })
const TopupForm = Form({ amount: Amount, channel: Type.String({ maxLength: 64 }) })

/** Form text to Rupiah: digits, with the dots or commas people type between thousands. */
function rupiah(text: string | undefined): number | undefined {
  const digits = text?.replace(/[.,\s]/g, '') ?? ''
  if (digits === '') return undefined
  if (!/^\d{1,16}$/.test(digits)) throw invalidField('amount', 'must be a whole number of Rupiah, like 100000')
  return Number(digits)
}

/** Top up: the channels with what an amount costs on each (the API's /balance/channels), and the payment link (its POST /balance). */
export function topupPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/dashboard/topup', { schema: { hide, querystring: TopupQuery } }, async (request, reply) => {
      const amount = rupiah(request.query.amount)
      const channels = (await listChannels(ctx.db)).filter((c) => c.active).map((c) => resellerChannel(c, amount))
      return reply.screen('topup.eta', { channels, amount })
    })
    app.post('/dashboard/topup', { schema: { hide, body: TopupForm } }, async (request, reply) => {
      const amount = rupiah(request.body.amount)
      if (amount === undefined) throw invalidField('amount', 'is required')
      const topup = await createTopup(ctx.db, ctx, request.dashboardUser.account_id, { amount, channel: request.body.channel })
      // Its page carries the payment link; the ledger shows the credit once it is paid.
      return reply.redirect(`/dashboard/transactions/${encodeURIComponent(topup.invoice)}`, 303)
    })
  }
}
