import { sql, type RawBuilder } from 'kysely'
import type { Database } from '../../db/database.js'
import type { MarginGroup } from './reports.schemas.js'

export type MarginFigures = {
  orders: number
  lines: number
  revenue: number | string
  cost: number | string
  unknown_cost_lines: number
}
export type MarginSum = MarginFigures & { key: string | null; label: string | null; total: boolean }

// What a row is keyed by; `l` a line with its order `o`, `u` its upstream requests' sum.
const KEYS: Record<MarginGroup, (timeZone: string) => RawBuilder<string>> = {
  item: () => sql`l.item_id::text`,
  provider: () =>
    sql`CASE WHEN provider_kind_of(l.order_process) IS NOT NULL THEN coalesce(u.provider, 'unknown')
             WHEN l.order_process = 'auto' THEN 'stock' ELSE 'manual' END`,
  reseller: () => sql`o.account_id::text`,
  // The buyer's price level when it bought (docs/design.md §5d); orders from before levels: the default's.
  level: () => sql`coalesce(o.price_level_id, (SELECT pl.id FROM price_levels pl WHERE pl.is_default))::text`,
  day: (timeZone) => sql`to_char(o.created_at AT TIME ZONE ${timeZone}, 'YYYY-MM-DD')`,
}

// The label read once per row, after the sums.
const LABELS: Record<MarginGroup, RawBuilder<string>> = {
  item: sql`(SELECT p.name || ' — ' || i.name FROM items i JOIN products p ON p.id = i.product_id WHERE i.id = s.key::bigint)`,
  provider: sql`CASE s.key WHEN 'stock' THEN 'Stock (auto)' WHEN 'manual' THEN 'Manual' ELSE s.key END`,
  reseller: sql`(SELECT a.name FROM accounts a WHERE a.id = s.key::bigint)`,
  level: sql`(SELECT pl.code FROM price_levels pl WHERE pl.id = s.key::bigint)`,
  day: sql`s.key`,
}

// What one upstream request `d` cost us: failed or voided nothing, an smm Partial what the panel
// delivered, any other its cost (an open one its planned cost). The margin report and Margin watch share it.
export const REQUEST_COST = sql`CASE WHEN d.status IN ('failed', 'void') THEN 0
                                     WHEN d.status = 'completed' AND d.kind = 'smm_panel' AND d.quantity > 0
                                       THEN round(d.cost::numeric * (d.quantity - least(coalesce(d.remains, 0), d.quantity)) / d.quantity)
                                     ELSE d.cost END`
// A request whose cost is unknown and counts: its line's cost is unknown.
export const REQUEST_COST_UNKNOWN = sql`d.cost IS NULL AND d.status NOT IN ('failed', 'void')`
// A line `l` that is not upstream costs its recorded cost, scaled to what was not refunded.
export const OWN_LINE_COST = sql`CASE WHEN l.subtotal = 0 THEN l.cost
                                      ELSE round(l.cost::numeric * (l.subtotal - l.refunded_amount) / l.subtotal) END`

/**
 * The margin of the lines of orders created on the days `from` to `to` (inclusive, YYYY-MM-DD in `timeZone`), summed per
 * group and in total, in one statement. Orders are found through the created_at BRIN index, their
 * lines and requests through their order_id indexes. An upstream line costs its requests: completed
 * at their cost (an smm partial for what the panel delivered), open at their planned cost, failed 0;
 * any other line its recorded cost, scaled to what was not refunded.
 */
export async function marginSums(db: Database, from: string, to: string, group: MarginGroup, timeZone: string): Promise<MarginSum[]> {
  const { rows } = await sql<MarginSum>`
    WITH counted AS (
      SELECT o.id, o.account_id, o.created_at, o.price_level_id
        FROM orders o
       WHERE o.created_at >= (${from}::date::timestamp AT TIME ZONE ${timeZone})
         AND o.created_at < ((${to}::date + 1)::timestamp AT TIME ZONE ${timeZone})
         AND o.status IN ('paid', 'completed', 'canceled')
    ), upstream AS (
      SELECT d.order_line_id,
             CASE WHEN bool_or(${REQUEST_COST_UNKNOWN}) THEN NULL ELSE sum(${REQUEST_COST}) END AS cost,
             -- The source that served: the last completed request's, else the last open one's, else the last one's.
             (array_agg(d.provider ORDER BY d.status = 'completed' DESC, d.status NOT IN ('failed', 'void') DESC, d.id DESC))[1] AS provider
        FROM counted o JOIN dispatches d ON d.order_id = o.id
       GROUP BY d.order_line_id
    ), priced AS (
      SELECT ${KEYS[group](timeZone)} AS key, o.id AS order_id, l.subtotal - l.refunded_amount AS revenue,
             CASE WHEN provider_kind_of(l.order_process) IS NOT NULL THEN u.cost ELSE ${OWN_LINE_COST} END AS cost
        FROM counted o
        JOIN order_lines l ON l.order_id = o.id
        LEFT JOIN upstream u ON u.order_line_id = l.id
    ), sums AS (
      SELECT key, GROUPING(key) = 1 AS total, count(DISTINCT order_id)::int AS orders, count(*)::int AS lines,
             coalesce(sum(revenue), 0)::bigint AS revenue, coalesce(sum(cost), 0)::bigint AS cost,
             (count(*) - count(cost))::int AS unknown_cost_lines
        FROM priced
       GROUP BY GROUPING SETS ((key), ())
    )
    SELECT s.*, CASE WHEN s.total THEN NULL ELSE ${LABELS[group]} END AS label FROM sums s`.execute(db)
  return rows
}
