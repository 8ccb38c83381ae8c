import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { marginReport } from './margin.service.js'
import { MARGIN_WATCH_DOCS } from './margin-watch.openapi.js'
import { MarginWatchAnswer, MarginWatchQuery } from './margin-watch.schemas.js'
import { marginWatch } from './margin-watch.service.js'
import { REPORT_DOCS } from './reports.openapi.js'
import { MarginAnswer, MarginQuery } from './reports.schemas.js'

const tags = ['operator']

/** The operator's reports over what was sold (docs/design.md §11b: margin per order line; §11c: Margin watch). */
export function reportRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/reports/margin',
      {
        schema: {
          tags,
          summary: 'Revenue, cost and margin of the lines sold, per item, source, reseller or day',
          querystring: MarginQuery,
          ...operation('operator', REPORT_DOCS.adminMarginReport, { 200: MarginAnswer }),
        },
      },
      async (request) => ok(await marginReport(ctx.dbRead, request.query, ctx.config.leaderboardTz)),
    )
    app.get(
      '/reports/margin-watch',
      {
        schema: {
          tags,
          summary: 'Lines sold below cost + the floor margin, bills the floor refused, items it keeps from selling',
          querystring: MarginWatchQuery,
          ...operation('operator', MARGIN_WATCH_DOCS.adminMarginWatch, { 200: MarginWatchAnswer }),
        },
      },
      async (request) => ok(await marginWatch(ctx.dbRead, request.query, ctx.config.leaderboardTz)),
    )
  }
}
