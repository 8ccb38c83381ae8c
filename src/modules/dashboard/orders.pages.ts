import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ORDER_STATUSES } from '../../db/schema.js'
import { pageWindow } from '../../http/paging.js'
import { PageNumber, StringEnum } from '../../http/schemas.js'
import { getTransaction, listPurchases } from '../orders/index.js'
import { showOrder } from './complaint-screens.js'

const hide = true
const ListQuery = Type.Object({
  status: Type.Optional(StringEnum(['', ...ORDER_STATUSES])),
  q: Type.Optional(Type.String({ maxLength: 191 })),
  page: Type.Optional(PageNumber),
  cursor: Type.Optional(Type.String({ maxLength: 40 })),
})
const RefParam = Type.Object({ ref: Type.String({ minLength: 1, maxLength: 191 }) })
const Done = Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) })

/** Transactions: the API's list (status filter) and its GET /trx/{ref} (search by ref_id or invoice, the detail page). */
export function orderPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/dashboard/transactions', { schema: { hide, querystring: ListQuery } }, async (request, reply) => {
      const accountId = request.dashboardUser.account_id
      const { page = 1, cursor } = request.query
      const status = request.query.status || undefined
      const q = request.query.q?.trim()
      let missing: string | undefined
      if (q) {
        // A ref_id or an invoice names one transaction: open it; another account's reads as not found.
        const found = await getTransaction(ctx.detailByRef, accountId, q).catch(() => undefined)
        if (found) return reply.redirect(`/dashboard/transactions/${encodeURIComponent(found.invoice)}`, 303)
        missing = q
      }
      const list = await listPurchases(request.readDb, accountId, status, pageWindow({ page, per_page: 50, cursor }))
      const next = list.meta.next_cursor ? `/dashboard/transactions?status=${status ?? ''}&cursor=${list.meta.next_cursor}` : undefined
      return reply.screen('orders.eta', { rows: list.data, meta: list.meta, status: status ?? '', missing, next })
    })
    // With each line's complaints and its forms (complaint-screens.ts).
    app.get('/dashboard/transactions/:ref', { schema: { hide, params: RefParam, querystring: Done } }, async (request, reply) =>
      showOrder(ctx, request, reply, request.params.ref, { done: request.query.done }),
    )
  }
}
