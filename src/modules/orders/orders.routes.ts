import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { sendKeptPage } from '../../http/kept-pages.js'
import { pageWindow } from '../../http/paging.js'
import { RESELLER_ERRORS, errors } from '../../http/schemas.js'
import { CreatedOrder, ListQuery, OrderList, OrderRetrieval, PurchaseBody, RefParam, SandboxBody, SandboxOrder } from './orders.schemas.js'
import { createPurchase, getTransaction, listPurchases, orderListVersion } from './orders.service.js'
import { createSandboxOrder } from './sandbox.service.js'

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
      async (request) => ok(await createPurchase(ctx.db, ctx, request.account.id, request.body)),
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
        const data = await getTransaction(ctx.detailByRef, request.account.id, request.params.ref)
        return { ...ok(data), h2h_results: data.h2h_results, smm_results: data.smm_results }
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
      async (request, reply) => {
        const { page = 1, per_page = 20, cursor, status } = request.query
        const accountId = request.account.id
        const read = async () => {
          const { data, meta } = await listPurchases(ctx.db, accountId, status, pageWindow({ page, per_page, cursor }))
          return ok(data, meta)
        }
        if (status) return read()
        // Bots poll the unfiltered list: answered from this process's copy while no order was added or settled.
        const version = await orderListVersion(ctx.accountCounters, accountId)
        return sendKeptPage(ctx.keptPages, reply, { list: 'orders', accountId, page, per_page, cursor }, version, read)
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
      async (request) => ok(await createSandboxOrder(ctx.db, ctx.fulfillable, request.account.id, request.body)),
    )
  }
}
