import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { sendKeptPage } from '../../http/kept-pages.js'
import { operation } from '../../http/operation.js'
import { pageWindow } from '../../http/paging.js'
import {
  CreatedOrder,
  PurchaseListQuery,
  OrderList,
  OrderRetrieval,
  PurchaseBody,
  RefParam,
  SandboxBody,
  SandboxOrder,
} from './orders.schemas.js'
import { getTransaction, listPurchases, orderListVersion } from './orders.service.js'
import { createSandboxOrder } from './sandbox.service.js'
import { ORDER_DOCS } from './orders.openapi.js'

const tags = ['transactions']

export function orderRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/trx',
      {
        schema: {
          tags,
          summary: 'Buy with balance',
          description:
            'Buys the cart with the balance, in one database transaction. Checks, in order: `ref_id` (a reused one answers 422 `REF_ID_ALREADY_EXIST` with the existing transaction in `data`) → `lock_token` → items (with each line’s `max_price`: a unit price above it is 422 `PRICE_ABOVE_MAX`) → stock → balance. A refused purchase stores nothing and leaves its `ref_id` free. An all-auto order answers `paid` and is `completed` (licenses included) when read back with `GET /api/v1/trx/{ref}`; upstream (h2h, smm) lines complete later and send webhooks. After a timeout or 503, repeat with the same `ref_id`: it is bought once.',
          body: PurchaseBody,
          ...operation('reseller', ORDER_DOCS.createPurchase, { 200: CreatedOrder }),
        },
      },
      async (request) => ok(await ctx.checkout.createPurchase(ctx.db, ctx, request.account.id, request.body)),
    )
    app.get(
      '/trx/:ref',
      {
        schema: {
          tags,
          summary: 'One transaction by ref_id or invoice',
          params: RefParam,
          ...operation('reseller', ORDER_DOCS.getTransaction, { 200: OrderRetrieval }),
        },
      },
      async (request) => {
        const data = await getTransaction(ctx.detailByRef, request.account.id, request.params.ref)
        return { ...ok(data), h2h_results: data.h2h_results, smm_results: data.smm_results }
      },
    )
    app.get(
      '/trx',
      {
        schema: {
          tags,
          summary: 'Your purchases, newest first',
          querystring: PurchaseListQuery,
          ...operation('reseller', ORDER_DOCS.listTransactions, { 200: OrderList }),
        },
      },
      async (request, reply) => {
        const { page = 1, per_page = 20, cursor } = request.query
        const status = request.query.status === 'failed' ? 'canceled' : request.query.status
        const accountId = request.account.id
        // A replica within the lag bound, or the primary: the version and its page from the same one.
        const { db, accountCounters } = ctx.listReads()
        const read = async () => {
          const { data, meta } = await listPurchases(db, accountId, status, pageWindow({ page, per_page, cursor }))
          return ok(data, meta)
        }
        if (status) return read()
        // Bots poll the unfiltered list: answered from this process's copy while no order was added or settled.
        const version = await orderListVersion(accountCounters, accountId)
        return sendKeptPage(ctx.keptPages, reply, { list: 'orders', accountId, page, per_page, cursor }, version, read)
      },
    )
    app.post(
      '/order/sandbox',
      {
        schema: {
          tags,
          summary: 'A test order: checked, stored, never charged or delivered',
          body: SandboxBody,
          ...operation('reseller', ORDER_DOCS.createSandboxOrder, { 200: SandboxOrder }),
        },
      },
      async (request) => ok(await createSandboxOrder(ctx.db, ctx.fulfillable, request.account.id, request.body)),
    )
  }
}
