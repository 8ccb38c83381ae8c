import type { Database } from '../../db/database.js'
import { AppError, type FieldErrors } from '../../errors.js'
import { marginSums, type MarginFigures } from './margin.queries.js'
import type { MarginGroup, MarginQuery, MarginReport } from './reports.schemas.js'

/** The longest range one report covers: a year, leap day included. */
export const MAX_REPORT_DAYS = 366
const DEFAULT_DAYS = 30
const DAY_MS = 86_400_000

/** A real calendar day's time at UTC midnight, or undefined (2026-02-30 is not one). */
function dayTime(day: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined
  const [y, m, d] = day.split('-').map(Number)
  const t = Date.UTC(y!, m! - 1, d!)
  return new Date(t).toISOString().slice(0, 10) === day ? t : undefined
}
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10)
/** Today on the operator's clock, YYYY-MM-DD. */
const today = (timeZone: string, now: Date) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(now)

/** The range asked for, checked: real days, `from` not after `to`, at most MAX_REPORT_DAYS; the last 30 days by default. */
export function reportRange(query: Pick<MarginQuery, 'from' | 'to'>, timeZone: string, now = new Date()): { from: string; to: string } {
  const fieldErrors: FieldErrors = {}
  const to = query.to ?? today(timeZone, now)
  const toTime = dayTime(to)
  if (toTime === undefined) fieldErrors.to = ['is not a calendar day (YYYY-MM-DD)']
  const from = query.from ?? (toTime === undefined ? to : dayOf(toTime - (DEFAULT_DAYS - 1) * DAY_MS))
  const fromTime = dayTime(from)
  if (fromTime === undefined) fieldErrors.from = ['is not a calendar day (YYYY-MM-DD)']
  if (fromTime !== undefined && toTime !== undefined) {
    if (fromTime > toTime) fieldErrors.from = ['must not be after `to`']
    else if ((toTime - fromTime) / DAY_MS + 1 > MAX_REPORT_DAYS) fieldErrors.to = [`the range covers at most ${MAX_REPORT_DAYS} days`]
  }
  if (Object.keys(fieldErrors).length) throw new AppError('VALIDATION_ERROR', { fieldErrors })
  return { from, to }
}

function figures(sum: MarginFigures) {
  const revenue = Number(sum.revenue)
  const cost = Number(sum.cost)
  const margin = revenue - cost
  return {
    orders: Number(sum.orders),
    lines: Number(sum.lines),
    revenue,
    cost,
    margin,
    margin_percent: revenue === 0 ? null : Math.round((margin / revenue) * 10_000) / 100,
    unknown_cost_lines: Number(sum.unknown_cost_lines),
  }
}

/** GET /reports/margin: what the lines of orders made on the days asked for earned over what they cost, per group and in total. */
export async function marginReport(db: Database, query: MarginQuery, timeZone: string, now = new Date()): Promise<MarginReport> {
  const { from, to } = reportRange(query, timeZone, now)
  const group: MarginGroup = query.group ?? 'day'
  const sums = await marginSums(db, from, to, group, timeZone)
  const rows = sums.filter((s) => !s.total).map((s) => ({ key: s.key!, label: s.label ?? s.key!, ...figures(s) }))
  // Days in order; anything else by what it earned, most first.
  if (group === 'day') rows.sort((a, b) => a.key.localeCompare(b.key))
  else rows.sort((a, b) => b.margin - a.margin || a.key.localeCompare(b.key, 'en', { numeric: true }))
  const total = sums.find((s) => s.total)!
  return { from, to, time_zone: timeZone, group, rows, totals: figures(total) }
}
