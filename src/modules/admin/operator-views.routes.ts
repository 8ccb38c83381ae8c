import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { pageWindow } from '../../http/paging.js'
import { ok, paginate } from '../../http/envelope.js'
import { ADMIN_ERRORS, IdParam, Ok, OkPage, PageNumber, errors } from '../../http/schemas.js'
import { getAccount } from '../accounts/index.js'
import { listOperatorItems } from '../catalog/index.js'
import * as ledger from '../ledger/index.js'
import { LedgerAudit, MutationPage, MutationsQuery } from '../ledger/index.js'
import { AdminItem } from './admin.schemas.js'
import { Overview } from './overview.schemas.js'
import { storeOverview } from './overview.service.js'

const tags = ['operator']
const security = [{ adminToken: [] }]

const ItemsQuery = Type.Object({
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'in item, product name or SKU' })),
  category: Type.Optional(Type.String({ minLength: 1, maxLength: 191, description: 'a category name or id' })),
})

/** What the console's pages read, for the API and CLI too: the overview, an account's ledger, every item. */
export function operatorViewRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get(
      '/overview',
      {
        schema: {
          tags,
          security,
          summary: 'Sales today and this month, balances held, and the queues waiting for an operator',
          description: 'Days and months start in LEADERBOARD_TZ. Sales count orders paid or completed.',
          response: { 200: Ok(Overview), ...errors(...ADMIN_ERRORS) },
        },
      },
      async () => ok(await storeOverview(db, ctx.config.leaderboardTz)),
    )
    app.get(
      '/resellers/:id/mutations',
      {
        schema: {
          tags,
          security,
          summary: "An account's balance mutations (its ledger), newest first",
          params: IdParam,
          querystring: MutationsQuery,
          response: { 200: MutationPage, ...errors(404, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => {
        const { page = 1, per_page = 20, cursor, ...filters } = request.query
        await getAccount(db, request.params.id)
        const { data, meta } = await ledger.listMutations(db, request.params.id, filters, pageWindow({ page, per_page, cursor }))
        return ok(data, meta)
      },
    )
    app.get(
      '/resellers/:id/audit',
      {
        schema: {
          tags,
          security,
          summary: "An account's books checked: balance against ledger, the ledger's chain, and what it paid for",
          description:
            'One snapshot: the balance against credits less debits, every entry starting from the balance the one before left, ' +
            'each order that cost something debited once and in full, refunds equal to what the lines record, each paid ' +
            'top-up credited once, and the lists’ kept totals. `consistent` is false when any check fails.',
          params: IdParam,
          response: { 200: LedgerAudit, ...errors(404, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => ok(await ledger.auditLedger(db, request.params.id)),
    )
    app.get(
      '/items',
      {
        schema: {
          tags,
          security,
          summary: 'Every item, on or off, with stock for sale now',
          querystring: ItemsQuery,
          response: { 200: OkPage(AdminItem.properties.data), ...errors(422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => {
        const { page = 1, per_page = 50, search, category } = request.query
        const { rows, total } = await listOperatorItems(db, { page, perPage: per_page, search, category })
        return ok(rows, paginate({ page, per_page }, total))
      },
    )
  }
}
