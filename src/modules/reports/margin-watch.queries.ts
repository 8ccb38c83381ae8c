import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import { OWN_LINE_COST, REQUEST_COST, REQUEST_COST_UNKNOWN } from './margin.queries.js'

/** The most rows a section lists; its `total` still counts them all. */
export const WATCH_LIMIT = 500

// Each section's rows carry count(*) OVER (): the whole count before the limit, in the same statement.
type Counted = { total: number | string }

export type BelowFloorLine = Counted & {
  order_id: number
  invoice: string
  ref_id: string
  reseller_id: number
  reseller_name: string
  item_id: number
  item_name: string
  quantity: number
  revenue: number | string
  cost: number | string
  floor_margin: number | string
  cause: string
  created_at: Date
}

// The days from..to (inclusive) in `timeZone`, as a bound on a created_at column.
const inDays = (column: string, from: string, to: string, timeZone: string) =>
  sql`${sql.ref(column)} >= (${from}::date::timestamp AT TIME ZONE ${timeZone})
      AND ${sql.ref(column)} < ((${to}::date + 1)::timestamp AT TIME ZONE ${timeZone})`

/**
 * Lines of orders made in the period that earned less than their cost + the floor margin (the
 * item's, else the store's, per unit, scaled as revenue is to what was not refunded). Costs as the
 * margin report counts them; a line of unknown cost is not judged. Orders through the created_at
 * BRIN index, lines and requests through their order_id indexes. The cause is the first that
 * applies: a request of the line replaced a failed one, the item allows a loss, its price is locked,
 * else the cost came above what the floor allowed (`cost_rise`).
 */
export async function linesBelowFloor(db: Database, from: string, to: string, timeZone: string): Promise<BelowFloorLine[]> {
  const { rows } = await sql<BelowFloorLine>`
    WITH counted AS (
      SELECT o.id, o.account_id, o.invoice, o.ref_id, o.created_at
        FROM orders o
       WHERE ${inDays('o.created_at', from, to, timeZone)} AND o.status IN ('paid', 'completed', 'canceled')
    ), upstream AS (
      SELECT d.order_line_id,
             CASE WHEN bool_or(${REQUEST_COST_UNKNOWN}) THEN NULL ELSE sum(${REQUEST_COST}) END AS cost,
             bool_or(d.failover_of IS NOT NULL) AS failover
        FROM counted o JOIN dispatches d ON d.order_id = o.id
       GROUP BY d.order_line_id
    ), judged AS (
      SELECT o.id AS order_id, o.invoice, o.ref_id, o.account_id, o.created_at, l.item_id, l.product_name, l.variant_name,
             l.quantity, l.subtotal - l.refunded_amount AS revenue,
             CASE WHEN provider_kind_of(l.order_process) IS NOT NULL THEN u.cost ELSE ${OWN_LINE_COST} END AS cost,
             CASE WHEN l.subtotal = 0 THEN 0
                  ELSE round(coalesce(it.min_margin, default_min_margin())::numeric * l.quantity
                             * (l.subtotal - l.refunded_amount) / l.subtotal) END AS floor_margin,
             CASE WHEN coalesce(u.failover, false) THEN 'failover' WHEN it.allow_loss THEN 'allow_loss'
                  WHEN it.price_locked THEN 'price_locked' ELSE 'cost_rise' END AS cause
        FROM counted o
        JOIN order_lines l ON l.order_id = o.id
        JOIN items it ON it.id = l.item_id
        LEFT JOIN upstream u ON u.order_line_id = l.id
    )
    SELECT j.order_id, j.invoice, j.ref_id, j.account_id AS reseller_id, a.name AS reseller_name, j.item_id,
           j.product_name || ' — ' || j.variant_name AS item_name, j.quantity, j.revenue, j.cost, j.floor_margin, j.cause,
           j.created_at, count(*) OVER () AS total
      FROM judged j JOIN accounts a ON a.id = j.account_id
     WHERE j.cost IS NOT NULL AND j.revenue < j.cost + j.floor_margin
     ORDER BY j.created_at DESC, j.order_id DESC, j.item_id
     LIMIT ${WATCH_LIMIT}`.execute(db)
  return rows
}

export type RefusedBill = Counted & {
  inquiry_id: number
  reseller_id: number
  reseller_name: string
  item_id: number
  item_name: string
  customer_id: string
  customer_name: string
  amount: number | string
  supplier_price: number | string | null
  created_at: Date
}

/** Bill inquiries the floor refused in the period, newest first, through bill_inquiries_floor_refused_idx. */
export async function refusedBills(db: Database, from: string, to: string, timeZone: string): Promise<RefusedBill[]> {
  const { rows } = await sql<RefusedBill>`
    SELECT b.id AS inquiry_id, b.account_id AS reseller_id, a.name AS reseller_name, b.item_id, p.name || ' — ' || it.name AS item_name,
           b.customer_no AS customer_id, b.customer_name, b.amount, b.provider_price AS supplier_price, b.created_at,
           count(*) OVER () AS total
      FROM bill_inquiries b
      JOIN accounts a ON a.id = b.account_id
      JOIN items it ON it.id = b.item_id
      JOIN products p ON p.id = it.product_id
     WHERE b.floor_refused AND ${inDays('b.created_at', from, to, timeZone)}
     ORDER BY b.created_at DESC, b.id DESC
     LIMIT ${WATCH_LIMIT}`.execute(db)
  return rows
}

export type FloorBlockedItem = Counted & {
  item_id: number
  item_name: string
  sku: string
  level: string
  price: number | string
  cheapest_cost: number | string
  floor_margin: number | string
  price_locked: boolean
}

/**
 * Active items that cannot sell now at a price level because of the floor alone: some source is listed
 * and outside its cut-off, but none of those is within the floor at that level's price
 * (item_source_states, catalog/sources.sql; docs/design.md §5d: a level's price is never raised to it).
 * One row per item and level; furthest below the floor first.
 */
export async function itemsBlockedByFloor(db: Database): Promise<FloorBlockedItem[]> {
  const { rows } = await sql<FloorBlockedItem>`
    SELECT it.id AS item_id, p.name || ' — ' || it.name AS item_name, it.sku, l.code AS level, lp.price, s.cheapest AS cheapest_cost,
           s.floor_margin, it.price_locked, count(*) OVER () AS total
      FROM items it
      JOIN products p ON p.id = it.product_id
      JOIN item_level_prices lp ON lp.item_id = it.id
      JOIN price_levels l ON l.id = lp.level_id
      CROSS JOIN LATERAL (
        SELECT min(st.price) FILTER (WHERE st.listed AND NOT st.in_cut_off) AS cheapest, max(st.floor_margin) AS floor_margin,
               bool_or(st.listed AND NOT st.in_cut_off) AS open, bool_or(st.listed AND NOT st.in_cut_off AND st.within_floor) AS serving
          FROM item_source_states(it.id, now(), lp.price) st
      ) s
     WHERE it.active AND EXISTS (SELECT 1 FROM item_sources x WHERE x.item_id = it.id) AND s.open AND NOT s.serving
     ORDER BY lp.price - s.cheapest - s.floor_margin, it.id, l.position, l.id
     LIMIT ${WATCH_LIMIT}`.execute(db)
  return rows
}
