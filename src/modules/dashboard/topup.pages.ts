import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.js'
import { invalidField } from '../../errors.js'
import { createTopup, listChannels, listTopups, resellerChannel } from '../topups/index.js'
import { Form } from '../../http/web-pages.js'
import { fieldRefusals, sendBack, type SentBack } from './refusals.js'
import { TEXTS } from './texts.js'

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

/** Top up: the channels with what an amount costs on each (the API's /balance/channels), the payment link (its POST /balance), and the account's top-ups still waiting for payment. */
export function topupPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const show = async (request: FastifyRequest, reply: FastifyReply, amountText: string | undefined, form?: SentBack) => {
    const texts = TEXTS[request.dashboardLang]
    const all = (await listChannels(ctx.db)).filter((c) => c.active)
    let amount: number | undefined
    try {
      amount = rupiah(amountText)
    } catch (error) {
      form = { values: { amount: amountText ?? '', ...form?.values }, errors: { ...fieldRefusals(error, texts), ...form?.errors } }
    }
    const channels = all.map((c) => resellerChannel(c, amount))
    // Still payable: pending and not past its expiry (the sweeper may not have run yet).
    const now = ctx.clock.now().getTime()
    const pending = (
      await listTopups(ctx.db, { page: 1, per_page: 20, status: 'pending', account_id: request.dashboardUser.account_id })
    ).rows
      .filter((t) => t.expires_at.getTime() > now)
      .map((t) => ({ ...t, channel_name: all.find((c) => c.code === t.channel)?.name ?? t.channel }))
    const page = { channels, amount, pending }
    return form ? sendBack(reply, 'topup.eta', page, form) : reply.screen('topup.eta', page)
  }
  return async (app) => {
    app.get('/dashboard/topup', { schema: { hide, querystring: TopupQuery } }, async (request, reply) =>
      show(request, reply, request.query.amount),
    )
    app.post('/dashboard/topup', { schema: { hide, body: TopupForm } }, async (request, reply) => {
      const { amount: typed, channel } = request.body
      const texts = TEXTS[request.dashboardLang]
      try {
        const amount = rupiah(typed)
        if (amount === undefined) throw invalidField('amount', 'is required')
        const topup = await createTopup(ctx.db, ctx, request.dashboardUser.account_id, { amount, channel })
        // Its page carries the payment link; the ledger shows the credit once it is paid.
        return reply.redirect(`/dashboard/transactions/${encodeURIComponent(topup.invoice)}`, 303)
      } catch (error) {
        const names = Object.fromEntries((await listChannels(ctx.db)).map((c) => [c.code, c.name]))
        const errors = fieldRefusals(error, texts, { channels: names })
        return show(request, reply, /^[\d.,\s]*$/.test(typed) ? typed : undefined, { values: { amount: typed, channel }, errors })
      }
    })
  }
}
