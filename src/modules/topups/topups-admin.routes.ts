import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok, paginate } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { Ok, OkPage, PageNumber, RowId } from '../../http/schemas.js'
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
import { expireTopup, listTopups, payTopup, syncChannels } from './topups.service.js'
import { TOPUP_ADMIN_DOCS } from './topups.openapi.js'

const tags = ['operator']

const TopupsQuery = Type.Object({
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  status: Type.Optional(TopupStatusFilter),
  account_id: Type.Optional(RowId()),
})

/** The operator's side of top-ups (docs/design.md §11): channels, the top-ups, paying a simulator top-up, resolving one in review. */
export function topupAdminRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get(
      '/channels',
      {
        schema: {
          tags,
          summary: 'Payment channels, on and off',
          ...operation('operator', TOPUP_ADMIN_DOCS.adminListChannels, { 200: Ok(Type.Array(OperatorChannel)) }),
        },
      },
      async () => ok((await listChannels(db)).map(operatorChannel)),
    )
    app.post(
      '/channels',
      {
        schema: {
          tags,
          summary: 'Add a payment channel; `code` is what resellers send as `channel`',
          body: ChannelBody,
          ...operation('operator', TOPUP_ADMIN_DOCS.adminCreateChannel, { 200: Ok(OperatorChannel) }),
        },
      },
      async (request) => {
        return ok(operatorChannel(await createChannelWithin(db, request.body)))
      },
    )
    app.patch(
      '/channels/:code',
      {
        schema: {
          tags,
          summary: 'Change a channel: name, type, fees, range, on/off',
          params: ChannelCodeParam,
          body: ChannelChangesBody,
          ...operation('operator', TOPUP_ADMIN_DOCS.adminUpdateChannel, { 200: Ok(OperatorChannel) }),
        },
      },
      async (request) => ok(operatorChannel(await updateChannel(db, request.params.code, request.body))),
    )
    app.post(
      '/channels/sync',
      {
        schema: {
          tags,
          summary: 'Import the payment gateway’s channel list (new ones added, known ones updated; on/off stays yours)',
          ...operation('operator', TOPUP_ADMIN_DOCS.adminSyncChannels, {
            200: Ok(Type.Object({ added: Type.Integer(), updated: Type.Integer() })),
          }),
        },
      },
      async () => ok(await syncChannels(db, ctx.paymentGateway)),
    )

    app.get(
      '/topups',
      {
        schema: {
          tags,
          summary: 'Top-ups of every account, newest first',
          querystring: TopupsQuery,
          ...operation('operator', TOPUP_ADMIN_DOCS.adminListTopups, { 200: OkPage(OperatorTopup) }),
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
          summary: 'Mark a simulator top-up paid (what its Pay page does); an expired one is TOPUP_EXPIRED',
          params: ReferenceParam,
          ...operation('operator', TOPUP_ADMIN_DOCS.adminPayTopup, { 200: PaidTopup }),
        },
      },
      async (request) => {
        const { topup, credited } = await payTopup(db, request.params.reference, 'operator')
        return ok({ ...topup, credited })
      },
    )
    app.post(
      '/topups/:reference/expire',
      {
        schema: {
          tags,
          summary: 'Retire a pending top-up now (the reseller will not pay it); nothing is credited',
          params: ReferenceParam,
          ...operation('operator', TOPUP_ADMIN_DOCS.adminExpireTopup, { 200: ResolvedTopup }),
        },
      },
      async (request) => ok(await expireTopup(db, request.params.reference)),
    )
    app.post(
      '/topups/:reference/resolve',
      {
        schema: {
          tags,
          summary: 'Resolve a top-up in review: credit the requested amount, another amount, or nothing (0), once',
          params: ReferenceParam,
          body: ResolveTopupBody,
          ...operation('operator', TOPUP_ADMIN_DOCS.adminResolveTopup, { 200: ResolvedTopup }),
        },
      },
      async (request) => ok(await resolveTopup(db, request.params.reference, request.body)),
    )
  }
}
