import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { operation } from '../../http/operation.js'
import { pageWindow } from '../../http/paging.js'
import { ok, paginate } from '../../http/envelope.js'
import { IdParam, Ok, OkPage, PageNumber } from '../../http/schemas.js'
import { getAccount } from '../accounts/index.js'
import { listOperatorItems } from '../catalog/index.js'
import * as ledger from '../ledger/index.js'
import { LedgerAudit, MutationPage, MutationsQuery } from '../ledger/index.js'
import { AdminItem } from './admin.schemas.js'
import { Overview } from './overview.schemas.js'
import { storeOverview } from './overview.service.js'
import { ADMIN_DOCS } from './admin.openapi.js'

const tags = ['operator']

const ItemsQuery = Type.Object({
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'in item, product name or SKU' })),
  category: Type.Optional(Type.String({ minLength: 1, maxLength: 191, description: 'a category name or id' })),
})

/** What the console's pages read, for the API and CLI too: the overview, an account's ledger, every item. */
export function operatorViewRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  // Lag-tolerant views on a replica within the bound (docs/operating.md#read-replicas); the books' audit on the primary.
  const { db, dbRead } = ctx
  const auditTimeLimit = ledger.auditTimeLimitMs(ctx.config.httpConnectionTimeoutMs)
  return async (app) => {
    app.get(
      '/overview',
      {
        schema: {
          tags,
          summary: 'Sales today and this month, balances held, and the queues waiting for an operator',
          description:
            'The store at a glance: sales today and this month (in LEADERBOARD_TZ), balances held by resellers, and the queues waiting for an operator (manual lines to send, upstream requests pending or in review, failing webhook deliveries, pending top-ups, top-ups in review, items low on stock).',
          ...operation('operator', ADMIN_DOCS.adminOverview, { 200: Ok(Overview) }),
        },
      },
      async () => ok(await storeOverview(dbRead, ctx.config.leaderboardTz)),
    )
    app.get(
      '/resellers/:id/mutations',
      {
        schema: {
          tags,
          summary: "An account's balance mutations (its ledger), newest first",
          params: IdParam,
          querystring: MutationsQuery,
          ...operation('operator', ADMIN_DOCS.adminListResellerMutations, { 200: MutationPage }),
        },
      },
      async (request) => {
        const { page = 1, per_page = 20, cursor, ...filters } = request.query
        await getAccount(dbRead, request.params.id)
        const { data, meta } = await ledger.listMutations(dbRead, request.params.id, filters, pageWindow({ page, per_page, cursor }))
        return ok(data, meta)
      },
    )
    app.get(
      '/resellers/:id/audit',
      {
        schema: {
          tags,
          summary: "An account's books checked: balance against ledger, the ledger's chain, and what it paid for",
          description:
            'Checks one account’s books in one snapshot, as an operator would by hand: each check says what it expected and what it ' +
            'found. A failing check is a finding to investigate (the database constraints and the purchase path are built so that none ' +
            'ever fails); `breaks` names the first ledger entries that do not follow from the one before. An account too large to check ' +
            'within 3/4 of HTTP_CONNECTION_TIMEOUT_MS answers 503 with how far the audit read, before the connection would be dropped.',
          params: IdParam,
          ...operation('operator', ADMIN_DOCS.adminAuditReseller, { 200: LedgerAudit }),
        },
      },
      async (request) => ok(await ledger.auditLedger(db, request.params.id, { timeLimitMs: auditTimeLimit })),
    )
    app.get(
      '/items',
      {
        schema: {
          tags,
          summary: 'Every item, on or off, with stock for sale now',
          querystring: ItemsQuery,
          ...operation('operator', ADMIN_DOCS.adminListItems, { 200: OkPage(AdminItem.properties.data) }),
        },
      },
      async (request) => {
        const { page = 1, per_page = 50, search, category } = request.query
        const { rows, total } = await listOperatorItems(dbRead, { page, perPage: per_page, search, category })
        return ok(rows, paginate({ page, per_page }, total))
      },
    )
  }
}
