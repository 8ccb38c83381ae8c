import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { CursorQuery, OkCursorPage, pageWindow } from '../../http/paging.js'
import { IdParam, Nullable, Ok, RowId, StringEnum, Timestamp } from '../../http/schemas.js'
import { cancelOrder } from '../checkout/index.js'
import { getOperatorOrder, listOperatorOrders, ListQuery, OrderDetail, OrderItem, OrderSummary, sendManualLine } from '../orders/index.js'
import { ADMIN_ORDER_DOCS } from './admin-orders.openapi.js'

const tags = ['operator']

const AdminOrder = Type.Composite([
  Type.Omit(OrderDetail, ['items']),
  Type.Object({
    account_id: Type.Integer(),
    cancel_reason: Nullable(Type.String()),
    items: Type.Array(Type.Composite([Type.Object({ id: Type.Integer() }), OrderItem])),
    ledger_entries: Type.Array(
      Type.Object({
        id: Type.Integer(),
        direction: Type.String(),
        type: Type.String(),
        amount: Type.Integer(),
        balance_before: Type.Integer(),
        balance_after: Type.Integer(),
        description: Type.String(),
        order_line_id: Nullable(Type.Integer()),
        created_at: Timestamp,
      }),
    ),
    requests: Type.Array(
      Type.Object({
        id: Type.Integer(),
        line_id: Type.Integer(),
        provider: Type.String({ description: 'the source that took the request' }),
        provider_code: Type.String(),
        upstream_ref: Type.String(),
        status: StringEnum(['queued', 'sending', 'pending', 'completed', 'failed', 'review', 'void']),
        amount: Type.Integer({ description: 'what the reseller paid for it' }),
        cost: Nullable(Type.Integer({ description: 'what the source charges for it; null when unknown' })),
        refund_amount: Type.Integer(),
        message: Nullable(Type.String()),
        failover_of: Nullable(Type.Integer({ description: 'the request this one replaced after it failed at another source' })),
      }),
      { description: 'every upstream request, by line, failed-over ones included' },
    ),
  }),
])
// A reseller's order summary, and whose it is.
const AdminOrderRow = Type.Composite([OrderSummary, Type.Object({ account_id: Type.Integer() })])
// The reseller's list query, with longer pages and any account's orders.
const AdminOrderQuery = Type.Object({
  ...ListQuery.properties,
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  account_id: Type.Optional(RowId()),
  ref: Type.Optional(Type.String({ minLength: 1, maxLength: 191, description: 'a ref_id or invoice (exact)' })),
  awaiting: Type.Optional(StringEnum(['manual'], { description: 'manual: orders with a manual line still to send' })),
  ...CursorQuery,
})
const LineParams = Type.Object({ id: RowId(), line: RowId() })
const Outcome = Ok(
  Type.Object({
    id: Type.Integer(),
    status: Type.String(),
    line_id: Type.Optional(Type.Integer()),
    refunded_lines: Type.Optional(Type.Integer()),
  }),
)

/** The operator's view of every account's transactions, and manual delivery and cancel (docs/design.md §11). */
export function adminOrderRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db, vault } = ctx
  return async (app) => {
    app.get(
      '/transactions',
      {
        schema: {
          tags,
          summary: 'Transactions of every account, newest first (by ref_id/invoice, or awaiting a manual send)',
          querystring: AdminOrderQuery,
          ...operation('operator', ADMIN_ORDER_DOCS.adminListTransactions, { 200: OkCursorPage(AdminOrderRow) }),
        },
      },
      async (request) => {
        const { page = 1, per_page = 50, status, account_id, ref, awaiting, cursor } = request.query
        const filter = { accountId: account_id, status, ref, awaiting }
        const { data, meta } = await listOperatorOrders(ctx.dbRead, filter, pageWindow({ page, per_page, cursor }))
        return ok(data, meta)
      },
    )
    app.get(
      '/transactions/:id',
      {
        schema: {
          tags,
          summary: 'One transaction with its line ids and ledger entries',
          params: IdParam,
          ...operation('operator', ADMIN_ORDER_DOCS.adminGetTransaction, { 200: Ok(AdminOrder) }),
        },
      },
      async (request) => ok(await getOperatorOrder(db, vault, request.params.id)),
    )
    app.post(
      '/transactions/:id/items/:line/send',
      // Sending with nothing to add is fine: a body-less POST counts as an empty object.
      {
        preValidation: async (request) => void (request.body ??= {}),
        schema: {
          tags,
          summary: 'Deliver a manual line (order.item.sent)',
          params: LineParams,
          body: Type.Object({
            product_license: Type.Optional(Type.String({ maxLength: 10000 })),
            note: Type.Optional(Type.String({ maxLength: 1000 })),
          }),
          ...operation('operator', ADMIN_ORDER_DOCS.adminSendManualLine, { 200: Outcome }),
        },
      },
      async (request) => ok(await sendManualLine(db, vault, request.params.id, request.params.line, request.body)),
    )
    app.post(
      '/transactions/:id/cancel',
      {
        schema: {
          tags,
          summary: 'Cancel what is not delivered yet, with refund',
          params: IdParam,
          body: Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500 }) }),
          ...operation('operator', ADMIN_ORDER_DOCS.adminCancelTransaction, { 200: Outcome }),
        },
      },
      async (request) => ok(await cancelOrder(db, request.params.id, request.body.reason)),
    )
  }
}
