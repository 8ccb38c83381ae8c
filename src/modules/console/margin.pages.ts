import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { StringEnum } from '../../http/schemas.js'
import { MARGIN_GROUPS, marginReport, marginWatch, type MarginRow } from '../reports/index.js'
import { Optional, blankToUndefined } from './form.js'

const hide = true
const BAR_HEIGHT = 22
const LABEL_WIDTH = 220
const CHART_WIDTH = 760

/** One horizontal bar per row, its length the row's margin over the largest; a loss extends left of the zero line. */
export function marginBars(rows: MarginRow[]) {
  const largest = Math.max(1, ...rows.map((r) => Math.abs(r.margin)))
  const hasLoss = rows.some((r) => r.margin < 0)
  const span = CHART_WIDTH - LABEL_WIDTH - 120
  const zero = LABEL_WIDTH + (hasLoss ? span / 2 : 0)
  const scale = (hasLoss ? span / 2 : span) / largest
  const bars = rows.map((r, i) => {
    const length = Math.max(1, Math.round(Math.abs(r.margin) * scale))
    return { y: i * BAR_HEIGHT, x: r.margin < 0 ? zero - length : zero, width: length, loss: r.margin < 0, row: r }
  })
  return {
    bars,
    zero,
    hasLoss,
    labelX: LABEL_WIDTH - 8,
    width: CHART_WIDTH,
    height: Math.max(1, rows.length) * BAR_HEIGHT + 4,
    barHeight: BAR_HEIGHT - 6,
  }
}

/** The margin report (docs/design.md §11b) with its form, table and chart; Margin watch (§11c). */
export function marginPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/console/margin',
      {
        config: { operationId: 'adminMarginReport' },
        schema: {
          hide,
          querystring: Type.Object({
            from: Optional(Type.String({ maxLength: 10 })),
            to: Optional(Type.String({ maxLength: 10 })),
            group: Optional(StringEnum(MARGIN_GROUPS)),
          }),
        },
      },
      async (request, reply) => {
        const { from, to, group } = request.query
        const report = await marginReport(
          request.readDb,
          { from: blankToUndefined(from), to: blankToUndefined(to), group },
          ctx.config.leaderboardTz,
        )
        return reply.page('margin.eta', { report, chart: marginBars(report.rows), groups: MARGIN_GROUPS })
      },
    )
    app.get(
      '/console/margin-watch',
      {
        config: { operationId: 'adminMarginWatch' },
        schema: {
          hide,
          querystring: Type.Object({ from: Optional(Type.String({ maxLength: 10 })), to: Optional(Type.String({ maxLength: 10 })) }),
        },
      },
      async (request, reply) => {
        const { from, to } = request.query
        const watch = await marginWatch(
          request.readDb,
          { from: blankToUndefined(from), to: blankToUndefined(to) },
          ctx.config.leaderboardTz,
        )
        return reply.page('margin-watch.eta', { watch, blocked: watch.items })
      },
    )
  }
}
