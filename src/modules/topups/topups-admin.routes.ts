import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok, paginate } from '../../http/envelope.js'
import { ADMIN_ERRORS, Ok, OkPage, PageNumber, RowId, errors } from '../../http/schemas.js'
import { createChannelWithin, listChannels, operatorChannel, updateChannel } from './channels.service.js'
import {
  ChannelBody,
  ChannelChangesBody,
  ChannelCodeParam,
  OperatorChannel,
  OperatorTopup,
  PaidTopup,
  ReferenceParam,
  ResolveTopupBody,
  ResolvedTopup,
  TopupStatusFilter,
} from './topups.schemas.js'
import { resolveTopup } from './topup-review.service.js'
import { listTopups, payTopup, syncChannels } from './topups.service.js'

const tags = ['operator']
const security = [{ adminToken: [] }]

const TopupsQuery = Type.Object({
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  status: Type.Optional(TopupStatusFilter),
  account_id: Type.Optional(RowId()),
})

/** The operator's side of top-ups (DESIGN §11): channels, the top-ups, paying a simulator top-up, resolving one in review. */
export function topupAdminRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get(
      '/channels',
      {
        schema: {
          tags,
          security,
          summary: 'Payment channels, on and off',
          response: { 200: Ok(Type.Array(OperatorChannel)), ...errors(...ADMIN_ERRORS) },
        },
      },
      async () => ok((await listChannels(db)).map(operatorChannel)),
    )
    app.post(
      '/channels',
      {
        schema: {
          tags,
          security,
          summary: 'Add a payment channel; `code` is what resellers send as `channel`',
          body: ChannelBody,
          response: { 200: Ok(OperatorChannel), ...errors(409, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => {
        const { code, name, type, fee_flat, fee_percent, min_amount, max_amount, active } = request.body
        return ok(
          operatorChannel(await createChannelWithin(db, { code, name, type, fee_flat, fee_percent, min_amount, max_amount, active })),
        )
      },
    )
    app.patch(
      '/channels/:code',
      {
        schema: {
          tags,
          security,
          summary: 'Change a channel: name, type, fees, range, on/off',
          params: ChannelCodeParam,
          body: ChannelChangesBody,
          response: { 200: Ok(OperatorChannel), ...errors(404, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => ok(operatorChannel(await updateChannel(db, request.params.code, request.body))),
    )
    app.post(
      '/channels/sync',
      {
        schema: {
          tags,
          security,
          summary: 'Import the payment gateway’s channel list (new ones added, known ones updated; on/off stays yours)',
          response: { 200: Ok(Type.Object({ added: Type.Integer(), updated: Type.Integer() })), ...errors(...ADMIN_ERRORS) },
        },
      },
      async () => ok(await syncChannels(db, ctx.paymentGateway)),
    )

    app.get(
      '/topups',
      {
        schema: {
          tags,
          security,
          summary: 'Top-ups of every account, newest first',
          querystring: TopupsQuery,
          response: { 200: OkPage(OperatorTopup), ...errors(422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => {
        const { page = 1, per_page = 50, status, account_id } = request.query
        const { rows, total } = await listTopups(db, { page, per_page, status, account_id })
        return ok(rows, paginate({ page, per_page }, total))
      },
    )
    app.post(
      '/topups/:reference/pay',
      {
        schema: {
          tags,
          security,
          summary: 'Mark a simulator top-up paid (what its Pay page does); an expired one is TOPUP_EXPIRED',
          params: ReferenceParam,
          response: { 200: PaidTopup, ...errors(404, 409, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => {
        const { topup, credited } = await payTopup(db, request.params.reference, 'operator')
        return ok({ ...topup, credited })
      },
    )
    app.post(
      '/topups/:reference/resolve',
      {
        schema: {
          tags,
          security,
          summary: 'Resolve a top-up in review: credit the requested amount, another amount, or nothing (0), once',
          params: ReferenceParam,
          body: ResolveTopupBody,
          response: { 200: ResolvedTopup, ...errors(404, 409, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => ok(await resolveTopup(db, request.params.reference, request.body)),
    )
  }
}
