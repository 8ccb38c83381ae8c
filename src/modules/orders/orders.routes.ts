import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { AppError } from '../../errors.js'
import { RESELLER_ERRORS, errors, pageMeta } from '../../http/schemas.js'
import { findOrderByRef, listOrders, loadOrderDetail } from './orders.queries.js'
import { CreatedOrder, ListQuery, OrderList, OrderRetrieval, PurchaseBody, RefParam, SandboxBody, SandboxOrder } from './orders.schemas.js'
import { createPurchase } from './orders.service.js'
import { createSandboxOrder, findSandboxDetail } from './sandbox.service.js'
import { findTopupByRef, topupDetail } from '../topups/topups.queries.js'

const tags = ['transactions']
const security = [{ apiKey: [] }]

export function orderRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/trx',
      {
        schema: {
          tags,
          security,
          summary: 'Buy with balance',
          description:
            'Checks in order: ref_id (a reused one answers REF_ID_ALREADY_EXIST with the existing transaction) → lock → items → stock → balance. A refused purchase stores nothing and leaves its ref_id free.',
          body: PurchaseBody,
          response: { 200: CreatedOrder, ...errors(400, 404, 422, ...RESELLER_ERRORS) },
        },
      },
      async (request) => ({ message: 'OK' as const, data: await createPurchase(ctx.db, ctx, request.account.id, request.body) }),
    )
    app.get(
      '/trx/:ref',
      {
        schema: {
          tags,
          security,
          summary: 'One transaction by ref_id or invoice',
          params: RefParam,
          response: { 200: OrderRetrieval, ...errors(404, 422, ...RESELLER_ERRORS) },
        },
      },
      async (request) => {
        const accountId = request.account.id
        const order = await findOrderByRef(ctx.db, accountId, request.params.ref)
        // Purchases and top-ups share the ref_id namespace; sandbox orders have their own, so come last.
        const topup = order ? undefined : await findTopupByRef(ctx.db, accountId, request.params.ref)
        const data = order
          ? await loadOrderDetail(ctx.db, ctx.vault, order)
          : topup
            ? topupDetail(topup)
            : await findSandboxDetail(ctx.db, accountId, request.params.ref)
        if (!data) throw new AppError('TRX_NOT_FOUND')
        return { message: 'OK' as const, data, h2h_results: data.h2h_results, smm_results: data.smm_results }
      },
    )
    app.get(
      '/trx',
      {
        schema: {
          tags,
          security,
          summary: 'Your purchases, newest first',
          querystring: ListQuery,
          response: { 200: OrderList, ...errors(422, ...RESELLER_ERRORS) },
        },
      },
      async (request) => {
        const q = { page: request.query.page ?? 1, per_page: request.query.per_page ?? 20, status: request.query.status }
        const { rows, total } = await listOrders(ctx.db, { ...q, accountId: request.account.id })
        return { message: 'OK' as const, data: rows, meta: pageMeta(q.page, q.per_page, total) }
      },
    )
    app.post(
      '/order/sandbox',
      {
        schema: {
          tags,
          security,
          summary: 'A test order: checked, stored, never charged or delivered',
          body: SandboxBody,
          response: { 200: SandboxOrder, ...errors(404, 422, ...RESELLER_ERRORS) },
        },
      },
      async (request) => ({
        message: 'OK' as const,
        data: await createSandboxOrder(ctx.db, ctx.fulfillable, request.account.id, request.body),
      }),
    )
  }
}
