import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { CursorQuery, pageWindow } from '../../http/paging.js'
import { IdParam, PageNumber, StringEnum } from '../../http/schemas.js'
import * as accounts from '../accounts/index.js'
import * as ledger from '../ledger/index.js'
import { accountDeliveries, storeDeliveries, updateAccountWebhook } from '../webhooks/index.js'
import { Form, Optional, Text, blankToUndefined, checked, noticeOf } from './form.js'

const hide = true
const PER_PAGE = 50
const DeliveryStatus = StringEnum(['', 'failing', 'pending', 'retrying', 'delivered', 'failed'])
const Done = { done: Optional(Type.String({ maxLength: 20 })) }

/** A reseller's ledger and webhook deliveries page by page, its books checked, its webhook settings, and the store's failing deliveries. */
export function resellerActivityPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  const auditTimeLimit = ledger.auditTimeLimitMs(ctx.config.httpConnectionTimeoutMs)
  const production = ctx.config.appEnv === 'production'
  return async (app) => {
    app.post(
      '/console/resellers/:id/webhook',
      {
        config: { operationId: 'adminUpdateWebhook' },
        schema: { hide, params: IdParam, body: Form({ callback_url: Text(2048), webhook_enabled: Optional(Text(5)) }) },
      },
      async (request, reply) => {
        const { callback_url, webhook_enabled } = request.body
        await updateAccountWebhook(db, production, request.params.id, {
          callback_url: blankToUndefined(callback_url) ?? null,
          webhook_enabled: checked(webhook_enabled),
        })
        return reply.redirect(`/console/resellers/${request.params.id}?done=webhook#webhook`, 303)
      },
    )
    app.get(
      '/console/resellers/:id/mutations',
      {
        config: { operationId: 'adminListResellerMutations' },
        schema: {
          hide,
          params: IdParam,
          querystring: Type.Object({
            page: Optional(PageNumber),
            ...CursorQuery,
            type: Optional(StringEnum(['', 'topup', 'purchase', 'refund', 'adjustment'])),
          }),
        },
      },
      async (request, reply) => {
        const { page = 1, cursor, type } = request.query
        const account = await accounts.getAccount(db, request.params.id)
        const mutations = await ledger.listMutations(
          db,
          account.id,
          { type: type || undefined },
          pageWindow({ page, per_page: PER_PAGE, cursor }),
        )
        return reply.page('mutations.eta', { account, mutations, type: type ?? '' })
      },
    )
    app.get(
      '/console/resellers/:id/audit',
      { config: { operationId: 'adminAuditReseller' }, schema: { hide, params: IdParam } },
      async (request, reply) => {
        const account = await accounts.getAccount(db, request.params.id)
        return reply.page('audit.eta', { account, audit: await ledger.auditLedger(db, account.id, { timeLimitMs: auditTimeLimit }) })
      },
    )
    app.get(
      '/console/resellers/:id/deliveries',
      {
        config: { operationId: 'adminListWebhookDeliveries' },
        schema: {
          hide,
          params: IdParam,
          querystring: Type.Object({ page: Optional(PageNumber), status: Optional(DeliveryStatus), ...Done }),
        },
      },
      async (request, reply) => {
        const { page = 1, status } = request.query
        const account = await accounts.getAccount(db, request.params.id)
        const { rows, total } =
          status === 'failing'
            ? await storeDeliveries(db, { status, accountId: account.id, page, perPage: PER_PAGE })
            : await accountDeliveries(db, account.id, { status: status || undefined, window: pageWindow({ page, per_page: PER_PAGE }) })
        const paging = { total, page, perPage: PER_PAGE, status: status ?? '' }
        return reply.page('deliveries.eta', { account, rows, paging, notice: noticeOf(request.query) })
      },
    )
    // The overview's queue: every account's failing deliveries (or another status), each redeliverable.
    app.get(
      '/console/webhook-deliveries',
      {
        config: { operationId: 'adminListStoreWebhookDeliveries' },
        schema: { hide, querystring: Type.Object({ page: Optional(PageNumber), status: Optional(DeliveryStatus), ...Done }) },
      },
      async (request, reply) => {
        const { page = 1, status } = request.query
        const { rows, total } = await storeDeliveries(db, { status: status || 'failing', page, perPage: PER_PAGE })
        const paging = { total, page, perPage: PER_PAGE, status: status || 'failing' }
        return reply.page('deliveries.eta', { account: undefined, rows, paging, notice: noticeOf(request.query) })
      },
    )
  }
}
