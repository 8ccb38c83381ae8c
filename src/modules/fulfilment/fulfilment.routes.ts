import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok, paginate } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { IdParam, Nullable, Ok, OkPage, PageNumber, StringEnum, Timestamp } from '../../http/schemas.js'
import { providerBalance, refreshProviderBalance } from './provider-balance.service.js'
import { listDispatches } from './review.service.js'
import { FULFILMENT_ADMIN_DOCS } from './fulfilment.openapi.js'

const tags = ['operator']

const DispatchView = Type.Object({
  id: Type.Integer(),
  order_id: Type.Integer(),
  invoice: Type.String(),
  account_id: Type.Integer(),
  order_line_id: Type.Integer(),
  provider: Type.String(),
  kind: Type.String(),
  upstream_ref: Type.String({ description: 'h2h: the ref_id sent; smm: our label (the panel takes none)' }),
  upstream_order_id: Nullable(Type.String()),
  provider_code: Type.String(),
  target: Type.String(),
  quantity: Type.Integer(),
  amount: Type.Integer(),
  status: Type.String(),
  upstream_status: Nullable(Type.String()),
  sn: Nullable(Type.String()),
  message: Nullable(Type.String()),
  attempts: Type.Integer(),
  first_sent_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
})
const ListQuery = Type.Object({
  status: Type.Optional(StringEnum(['review', 'queued', 'sending', 'pending', 'completed', 'failed', 'void'], { default: 'review' })),
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
})
const ResolveBody = Type.Object({
  outcome: StringEnum(['placed', 'failed']),
  order_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'smm, placed: the panel order id found at the panel' })),
  sn: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'h2h, placed: the serial number the provider shows' })),
  reason: Type.Optional(Type.String({ maxLength: 500 })),
})

/** Upstream requests that need an operator (docs/design.md §5): an smm add cut off by a crash, an h2h request pending for 90 days. */
export function fulfilmentAdminRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get(
      '/dispatches',
      {
        schema: {
          tags,
          summary: 'Upstream requests by status (default: waiting for review)',
          querystring: ListQuery,
          ...operation('operator', FULFILMENT_ADMIN_DOCS.adminListDispatches, { 200: OkPage(DispatchView) }),
        },
      },
      async (request) => {
        const { status = 'review', page = 1, per_page = 50 } = request.query
        const { rows, total } = await listDispatches(db, { status, page, per_page })
        return ok(rows, paginate({ page, per_page }, total))
      },
    )
    app.post(
      '/dispatches/:id/resolve',
      {
        schema: {
          tags,
          summary: 'Settle a request in review: placed (smm order_id / h2h sn) or failed (refunded)',
          params: IdParam,
          body: ResolveBody,
          ...operation('operator', FULFILMENT_ADMIN_DOCS.adminResolveDispatch, {
            200: Ok(
              Type.Object({
                id: Type.Integer(),
                status: Type.String(),
                upstream_order_id: Nullable(Type.String()),
                sn: Nullable(Type.String()),
              }),
            ),
          }),
        },
      },
      async (request) => ok(await ctx.checkout.resolveDispatch(db, request.params.id, request.body)),
    )
    const ProviderBalance = Ok(
      Type.Object({
        provider: Type.String(),
        balance: Nullable(Type.Number({ description: 'as last read; null until a read succeeded' })),
        currency: Nullable(Type.String({ description: 'IDR for Digiflazz; a panel its own' })),
        read_at: Nullable(Timestamp),
        error: Nullable(Type.String({ description: 'why the last attempt gave no balance (the last good read stays)' })),
        spent_24h: Type.Number({ description: 'what completed requests at this provider cost in the last 24 hours' }),
        hours_left: Nullable(
          Type.Number({ description: 'the balance at the last 24 hours’ rate; null without spend or in another currency' }),
        ),
      }),
    )
    const CodeParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 100 }) })
    app.get(
      '/providers/:code/balance',
      {
        schema: {
          tags,
          summary: 'What is left at a provider, as last read',
          params: CodeParams,
          ...operation('operator', FULFILMENT_ADMIN_DOCS.adminProviderBalance, { 200: ProviderBalance }),
        },
      },
      async (request) => ok(await providerBalance(db, request.params.code)),
    )
    app.post(
      '/providers/:code/balance/refresh',
      {
        schema: {
          tags,
          summary: 'Read a provider’s balance now',
          params: CodeParams,
          ...operation('operator', FULFILMENT_ADMIN_DOCS.adminRefreshProviderBalance, { 200: ProviderBalance }),
        },
      },
      async (request) => ok(await refreshProviderBalance(db, ctx.vault, request.params.code, ctx.config.providerTimeoutMs)),
    )
  }
}
