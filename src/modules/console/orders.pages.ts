import { CursorQuery, pageWindow } from '../../http/paging.js'
import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { IdParam, PageNumber, RowId, StringEnum } from '../../http/schemas.js'
import { cancelOrder, resolveDispatch } from '../checkout/index.js'
import { listDispatches } from '../fulfilment/index.js'
import { getOperatorOrder, listOperatorOrders, sendManualLine } from '../orders/index.js'
import { ORDER_STATUSES } from '../../db/schema.js'
import * as accounts from '../accounts/index.js'
import { Form, Optional, Text, blankToUndefined, noticeOf } from './form.js'
import { resellerNames } from './names.js'

const hide = true
// '' is the form's "any": a select or checkbox left alone.
const OrdersQuery = Type.Object({
  ref: Optional(Type.String({ maxLength: 191 })),
  status: Optional(StringEnum(['', ...ORDER_STATUSES])),
  awaiting: Optional(StringEnum(['', 'manual'])),
  account_id: Optional(RowId()),
  page: Optional(PageNumber),
  ...CursorQuery,
})
const DispatchStatus = StringEnum(['review', 'queued', 'sending', 'pending', 'completed', 'failed', 'void'])

/** Orders: search by ref_id or invoice, the detail with lines, results and ledger; send, cancel; upstream requests to resolve. */
export function orderPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db, vault } = ctx
  return async (app) => {
    app.get(
      '/console/orders',
      { config: { operationId: 'adminListTransactions' }, schema: { hide, querystring: OrdersQuery } },
      async (request, reply) => {
        const { ref, status, awaiting, account_id, page = 1, cursor } = request.query
        const filter = { ref: blankToUndefined(ref), status: status || undefined, awaiting: awaiting || undefined, accountId: account_id }
        const { data: rows, meta } = await listOperatorOrders(request.readDb, filter, pageWindow({ page, per_page: 50, cursor }))
        // A search that names one order goes straight to it.
        if (filter.ref && rows.length === 1 && meta.page === 1) return reply.redirect(`/console/orders/${rows[0].id}`, 303)
        // The next page keeps every filter, the account's too.
        const kept = { ref: ref ?? '', status: status ?? '', awaiting: awaiting ?? '', account_id: account_id ? String(account_id) : '' }
        const given = Object.entries(kept).filter(([, v]) => v !== '')
        const next = meta.next_cursor ? `?${new URLSearchParams([...given, ['cursor', meta.next_cursor]])}` : undefined
        const [names, reseller] = await Promise.all([
          resellerNames(
            request.readDb,
            rows.map((o) => o.account_id),
          ),
          account_id ? accounts.getAccount(request.readDb, account_id) : undefined,
        ])
        const filtered = given.some(([k]) => k !== 'account_id')
        return reply.page('orders.eta', { rows, meta, next, query: kept, names, reseller, filtered })
      },
    )
    app.get(
      '/console/orders/:id',
      {
        config: { operationId: 'adminGetTransaction' },
        schema: { hide, params: IdParam, querystring: Type.Object({ done: Optional(Type.String({ maxLength: 20 })) }) },
      },
      async (request, reply) => {
        const order = await getOperatorOrder(db, vault, request.params.id)
        const reseller = await accounts.getAccount(db, order.account_id)
        return reply.page('order.eta', { order, reseller, notice: noticeOf(request.query) })
      },
    )
    app.post(
      '/console/orders/:id/lines/:line/send',
      {
        config: { operationId: 'adminSendManualLine' },
        schema: {
          hide,
          params: Type.Object({ id: RowId(), line: RowId() }),
          body: Form({ product_license: Optional(Text(10_000)), note: Optional(Text(1000)) }),
        },
      },
      async (request, reply) => {
        const { product_license, note } = request.body
        await sendManualLine(db, vault, request.params.id, request.params.line, {
          product_license: blankToUndefined(product_license),
          note: blankToUndefined(note),
        })
        return reply.redirect(`/console/orders/${request.params.id}?done=sent`, 303)
      },
    )
    app.post(
      '/console/orders/:id/cancel',
      {
        config: { operationId: 'adminCancelTransaction' },
        schema: { hide, params: IdParam, body: Form({ reason: Type.String({ minLength: 1, maxLength: 500 }) }) },
      },
      async (request, reply) => {
        await cancelOrder(db, request.params.id, request.body.reason)
        return reply.redirect(`/console/orders/${request.params.id}?done=canceled`, 303)
      },
    )
    app.get(
      '/console/dispatches',
      {
        config: { operationId: 'adminListDispatches' },
        schema: { hide, querystring: Type.Object({ status: Optional(DispatchStatus), page: Optional(PageNumber) }) },
      },
      async (request, reply) => {
        const { status = 'review', page = 1 } = request.query
        const { rows, total } = await listDispatches(request.readDb, { status, page, per_page: 50 })
        return reply.page('dispatches.eta', { rows, total, page, status })
      },
    )
    app.post(
      '/console/dispatches/:id/resolve',
      {
        config: { operationId: 'adminResolveDispatch' },
        schema: {
          hide,
          params: IdParam,
          body: Form({
            outcome: StringEnum(['placed', 'failed']),
            order_id: Optional(Text(100)),
            sn: Optional(Text(200)),
            reason: Optional(Text(500)),
          }),
        },
      },
      async (request, reply) => {
        const { outcome, order_id, sn, reason } = request.body
        await resolveDispatch(db, request.params.id, {
          outcome,
          order_id: blankToUndefined(order_id),
          sn: blankToUndefined(sn),
          reason: blankToUndefined(reason),
        })
        return reply.redirect('/console/dispatches?status=review', 303)
      },
    )
  }
}
