import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { AppError, invalidField } from '../../errors.js'
import { CHANNEL_TYPES, TOPUP_STATUSES } from '../../db/schema.js'
import { PageNumber, RowId, StringEnum } from '../../http/schemas.js'
import { MAX_MONEY } from '../ledger/index.js'
import {
  ChannelBody,
  ChannelChangesBody,
  ChannelCodeParam,
  createChannelWithin,
  findChannel,
  listChannels,
  listTopups,
  payTopup,
  ReferenceParam,
  resolveTopup,
  syncChannels,
  updateChannel,
} from '../topups/index.js'
import * as accounts from '../accounts/index.js'
import { Form, Optional, Text, asApiBody, blankToUndefined, decimal, noticeOf, wholeNumber } from './form.js'
import { resellerNames } from './names.js'

const hide = true
const PER_PAGE = 50
const Done = { done: Optional(Type.String({ maxLength: 20 })) }

/** Top-ups of every reseller (a simulator one can be marked paid, one in review resolved) and the payment channels. */
export function topupPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get(
      '/console/topups',
      {
        config: { operationId: 'adminListTopups' },
        schema: {
          hide,
          querystring: Type.Object({
            status: Optional(StringEnum(['', ...TOPUP_STATUSES])),
            account_id: Optional(RowId()),
            page: Optional(PageNumber),
            ...Done,
          }),
        },
      },
      async (request, reply) => {
        const { status, account_id, page = 1 } = request.query
        const [{ rows, total }, review] = await Promise.all([
          listTopups(request.readDb, { page, per_page: PER_PAGE, status: status || undefined, account_id }),
          // The operator's queue, above any list: a gateway reported another paid total.
          listTopups(request.readDb, { page: 1, per_page: PER_PAGE, status: 'review', account_id }),
        ])
        const [names, reseller] = await Promise.all([
          resellerNames(
            request.readDb,
            [...rows, ...review.rows].map((t) => t.account_id),
          ),
          account_id ? accounts.getAccount(request.readDb, account_id) : undefined,
        ])
        const simulator = ctx.config.paymentGateway === 'simulator'
        // Every filter travels with the page links.
        const link = (to: number) =>
          `?${new URLSearchParams(Object.entries({ status, account_id, page: to }).flatMap(([k, v]) => (v ? [[k, String(v)]] : [])))}`
        const next = Number(total) > page * PER_PAGE ? link(page + 1) : undefined
        const previous = page > 1 ? link(page - 1) : undefined
        return reply.page('topups.eta', {
          rows,
          total,
          review: review.rows,
          reviewTotal: review.total,
          page,
          next,
          previous,
          status: status ?? '',
          account_id,
          names,
          reseller,
          simulator,
          notice: noticeOf(request.query),
        })
      },
    )
    app.post(
      '/console/topups/:reference/pay',
      { config: { operationId: 'adminPayTopup' }, schema: { hide, params: ReferenceParam } },
      async (request, reply) => {
        await payTopup(db, request.params.reference, 'operator')
        return reply.redirect('/console/topups?done=paid', 303)
      },
    )
    // The same decision as POST /topups/{reference}/resolve: the requested amount, another amount, or nothing.
    app.post(
      '/console/topups/:reference/resolve',
      {
        config: { operationId: 'adminResolveTopup' },
        schema: {
          hide,
          params: ReferenceParam,
          body: Form({ credit: StringEnum(['requested', 'other', 'nothing']), other_amount: Optional(Text(20)), reason: Text(500) }),
        },
      },
      async (request, reply) => {
        const { credit, other_amount, reason } = request.body
        const other = credit === 'other' ? wholeNumber('other_amount', other_amount) : 0
        if (other === undefined || other < 0 || other > MAX_MONEY)
          throw invalidField('other_amount', `must be a whole number of Rupiah from 0 to ${MAX_MONEY}`)
        await resolveTopup(db, request.params.reference, { credit_amount: credit === 'requested' ? 'requested' : other, reason })
        return reply.redirect('/console/topups?done=resolved', 303)
      },
    )
    app.get(
      '/console/channels',
      { config: { operationId: 'adminListChannels' }, schema: { hide, querystring: Type.Object(Done) } },
      async (request, reply) => reply.page('channels.eta', { channels: await listChannels(db), notice: noticeOf(request.query) }),
    )
    const ChannelForm = {
      name: Text(100),
      type: StringEnum(CHANNEL_TYPES),
      fee_flat: Optional(Text(16)),
      fee_percent: Optional(Text(16)),
      min_amount: Optional(Text(16)),
      max_amount: Optional(Text(16)),
      bank: Optional(Text(64)),
      account_number: Optional(Text(30)),
      account_name: Optional(Text(100)),
    }
    const channelValues = (b: {
      name: string
      type: string
      fee_flat?: string
      fee_percent?: string
      min_amount?: string
      max_amount?: string
      bank?: string
      account_number?: string
      account_name?: string
    }) => ({
      name: b.name,
      type: b.type,
      fee_flat: wholeNumber('fee_flat', b.fee_flat),
      fee_percent: decimal('fee_percent', b.fee_percent),
      min_amount: wholeNumber('min_amount', b.min_amount),
      max_amount: wholeNumber('max_amount', b.max_amount),
      bank: blankToUndefined(b.bank),
      account_number: blankToUndefined(b.account_number),
      account_name: blankToUndefined(b.account_name),
    })
    app.post(
      '/console/channels',
      { config: { operationId: 'adminCreateChannel' }, schema: { hide, body: Form({ code: Text(32), ...ChannelForm }) } },
      async (request, reply) => {
        await createChannelWithin(db, asApiBody(ChannelBody, { code: request.body.code, ...channelValues(request.body) }))
        return reply.redirect('/console/channels?done=channel', 303)
      },
    )
    app.get(
      '/console/channels/:code',
      { config: { operationId: 'adminListChannels' }, schema: { hide, params: ChannelCodeParam } },
      async (request, reply) => {
        const channel = await findChannel(db, request.params.code)
        if (!channel) throw new AppError('CHANNEL_NOT_FOUND')
        return reply.page('channel.eta', { channel })
      },
    )
    // The same change as PATCH /channels/{code}: name, type, fees and range (a blank leaves a value as it is).
    app.post(
      '/console/channels/:code',
      { config: { operationId: 'adminUpdateChannel' }, schema: { hide, params: ChannelCodeParam, body: Form(ChannelForm) } },
      async (request, reply) => {
        await updateChannel(db, request.params.code, asApiBody(ChannelChangesBody, channelValues(request.body)))
        return reply.redirect('/console/channels?done=channel', 303)
      },
    )
    app.post(
      '/console/channels/:code/active',
      {
        config: { operationId: 'adminUpdateChannel' },
        schema: { hide, params: ChannelCodeParam, body: Form({ active: StringEnum(['true', 'false']) }) },
      },
      async (request, reply) => {
        await updateChannel(db, request.params.code, { active: request.body.active === 'true' })
        return reply.redirect('/console/channels?done=channel', 303)
      },
    )
    app.post('/console/channels/sync', { config: { operationId: 'adminSyncChannels' }, schema: { hide } }, async (_request, reply) => {
      await syncChannels(db, ctx.paymentGateway)
      return reply.redirect('/console/channels?done=synced', 303)
    })
  }
}
