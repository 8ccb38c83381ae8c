import { sql } from 'kysely'
import { expect } from 'vitest'
import type { Database } from '../src/db/database.js'
import { auditLedger } from '../src/modules/ledger/index.js'

/**
 * The invariants of docs/design.md §5, asserted after every concurrent run: balances equal their ledgers
 * and stay ≥ 0, stock adds up, every license is sold at most once and to a line of its own item,
 * one order per (account, ref_id), and no paid order is left without a task that will end it.
 */
export async function assertInvariants(db: Database, limitedStockAdded: Record<number, number> = {}) {
  const balances = await sql<{ id: number; balance: number; ledger: number; counted: string; actual: string }>`
    SELECT a.id, a.balance,
           coalesce(sum(CASE WHEN l.direction = 'credit' THEN l.amount ELSE -l.amount END), 0)::bigint AS ledger,
           a.orders_count || '/' || a.ledger_count AS counted,
           (SELECT count(*) FROM orders WHERE account_id = a.id) || '/' || count(l.id) AS actual
      FROM accounts a LEFT JOIN ledger_entries l ON l.account_id = a.id GROUP BY a.id`.execute(db)
  for (const row of balances.rows) {
    expect(row.balance, `account ${row.id} balance vs ledger`).toBe(row.ledger)
    expect(row.balance).toBeGreaterThanOrEqual(0)
    // The lists' totals: orders/ledger entries as kept on the row vs counted.
    expect(row.counted, `account ${row.id} list counters`).toBe(row.actual)
    // The operators' audit agrees: none of its checks fails on books the runs above left.
    const audit = await auditLedger(db, row.id)
    expect(
      audit.checks.filter((c) => !c.ok),
      `account ${row.id} audit`,
    ).toEqual([])
  }

  const orders = await sql<{ id: number; amount: number; lines: number; debited: number; refunded: number; status: string }>`
    SELECT o.id, o.amount, o.status,
           (SELECT coalesce(sum(subtotal), 0)::bigint FROM order_lines WHERE order_id = o.id) AS lines,
           (SELECT coalesce(sum(amount), 0)::bigint FROM ledger_entries WHERE order_id = o.id AND type = 'purchase') AS debited,
           (SELECT coalesce(sum(amount), 0)::bigint FROM ledger_entries WHERE order_id = o.id AND type = 'refund') AS refunded
      FROM orders o`.execute(db)
  for (const o of orders.rows) {
    expect(o.lines, `order ${o.id} lines add up`).toBe(o.amount)
    expect(o.debited, `order ${o.id} debited once`).toBe(o.amount)
    if (o.status === 'canceled') expect(o.refunded).toBe(o.amount)
  }

  // The leaderboard's months hold exactly the completed orders, net of refunds, in their completion
  // month: every one whose completion has left the outbox (the relay counts it).
  const leaderboard = await sql<{ account_id: number; month: string; counted: string | null; expected: string | null }>`
    WITH expected AS (
      SELECT o.account_id, leaderboard_month(o.finished_at) AS month, count(*) AS transactions,
             sum(o.amount - (SELECT coalesce(sum(refunded_amount), 0) FROM order_lines WHERE order_id = o.id))::bigint AS amount
        FROM orders o
       WHERE o.status = 'completed' AND NOT EXISTS (SELECT 1 FROM outbox_events e WHERE e.order_id = o.id AND e.leaderboard_counts)
       GROUP BY 1, 2)
    SELECT account_id, month::text, m.transactions || '/' || m.amount AS counted, e.transactions || '/' || e.amount AS expected
      FROM expected e FULL JOIN leaderboard_months m USING (account_id, month)
     WHERE (m.transactions, m.amount) IS DISTINCT FROM (e.transactions, e.amount)`.execute(db)
  expect(leaderboard.rows, 'leaderboard months vs completed orders').toEqual([])
  await assertDeliveryTotals(db)

  const duplicates = await sql<{
    n: number
  }>`SELECT count(*) AS n FROM (SELECT account_id, ref_id FROM orders GROUP BY 1, 2 HAVING count(*) > 1) d`.execute(db)
  expect(duplicates.rows[0].n).toBe(0)

  // Every auto line holds exactly its quantity of sold licenses, all of its own item (a complaint's resend
  // voids the ones it replaced; a typed resend replaces them all: none sold, the typed one delivered).
  const autoLines = await sql<{ id: number; quantity: number; held: number; foreign: number }>`
    SELECT ol.id, CASE WHEN ol.delivery_enc IS NULL THEN ol.quantity ELSE 0 END AS quantity,
           (SELECT count(*) FROM licenses l WHERE l.order_line_id = ol.id AND l.status = 'sold') AS held,
           (SELECT count(*) FROM licenses l WHERE l.order_line_id = ol.id AND l.item_id <> ol.item_id) AS foreign
      FROM order_lines ol WHERE ol.order_process = 'auto'`.execute(db)
  for (const line of autoLines.rows) {
    expect(line.held, `auto line ${line.id}`).toBe(line.quantity)
    expect(line.foreign).toBe(0)
  }
  const soldWithoutLine = await sql<{
    n: number
  }>`SELECT count(*) AS n FROM licenses WHERE (status IN ('sold', 'void')) <> (order_line_id IS NOT NULL)`.execute(db)
  expect(soldWithoutLine.rows[0].n).toBe(0)
  // Every stocked voucher is in the registry that keeps it unique store-wide (migration 0180).
  const unregistered = await sql<{
    n: number
  }>`SELECT count(*) AS n FROM licenses l WHERE NOT EXISTS (SELECT 1 FROM license_fingerprints f WHERE f.fingerprint = l.fingerprint)`.execute(
    db,
  )
  expect(unregistered.rows[0].n).toBe(0)

  for (const [itemId, added] of Object.entries(limitedStockAdded)) {
    const { rows } = await sql<{ stock: number; taken: number }>`
      -- A line a complaint refunded keeps its stock: the goods went out.
      SELECT i.stock, (SELECT coalesce(sum(stock_taken), 0)::bigint FROM order_lines ol WHERE item_id = i.id
                        AND (status <> 'refunded' OR EXISTS (SELECT 1 FROM complaints c WHERE c.order_line_id = ol.id AND c.resolution = 'refunded'))) AS taken
        FROM items i WHERE i.id = ${Number(itemId)}`.execute(db)
    expect(rows[0].stock + rows[0].taken, `item ${itemId} stock adds up`).toBe(added)
    expect(rows[0].stock).toBeGreaterThanOrEqual(0)
  }

  // A line's refunds are at most one ledger entry of settlement's and one of a complaint's, adding up to its
  // refunded_amount; refunded lines gave back their whole subtotal.
  const lineRefunds = await sql<{ id: number; status: string; subtotal: number; refunded_amount: number; ledger: number; entries: number }>`
    SELECT ol.id, ol.status, ol.subtotal, ol.refunded_amount,
           (SELECT coalesce(sum(amount), 0)::bigint FROM ledger_entries WHERE order_line_id = ol.id AND type = 'refund') AS ledger,
           (SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM ledger_entries WHERE order_line_id = ol.id AND type = 'refund'
                                               GROUP BY reference IS NULL) k) AS entries
      FROM order_lines ol`.execute(db)
  for (const line of lineRefunds.rows) {
    expect(line.ledger, `line ${line.id} refund vs ledger`).toBe(line.refunded_amount)
    expect(line.entries).toBeLessThanOrEqual(1)
    if (line.status === 'refunded') expect(line.refunded_amount, `refunded line ${line.id}`).toBe(line.subtotal)
  }

  // Upstream lines: requests add up to the line, and an open line has a request still under way (the poller's task).
  // A request that failed over to another source (docs/design.md §11b) is replaced by its one successor: it
  // gave nothing back and counts no more.
  const upstream = await sql<{
    id: number
    status: string
    subtotal: number
    requested: number
    open: number
    refundable: number
    refunded_amount: number
    by_complaint: number
  }>`
    SELECT ol.id, ol.status, ol.subtotal, ol.refunded_amount,
           (SELECT coalesce(sum(amount), 0)::bigint FROM dispatches d
             WHERE order_line_id = ol.id AND NOT EXISTS (SELECT 1 FROM dispatches f WHERE f.failover_of = d.id)) AS requested,
           (SELECT count(*) FROM dispatches WHERE order_line_id = ol.id AND status IN ('queued', 'sending', 'pending', 'review')) AS open,
           (SELECT coalesce(sum(refund_amount), 0)::bigint FROM dispatches WHERE order_line_id = ol.id) AS refundable,
           -- What a complaint refunded after the line settled (docs/design.md §14) is not its requests'.
           (SELECT coalesce(sum(refunded_amount), 0)::bigint FROM complaints WHERE order_line_id = ol.id) AS by_complaint
      FROM order_lines ol WHERE ol.order_process IN ('h2h', 'smm')`.execute(db)
  for (const line of upstream.rows) {
    expect(line.requested, `upstream line ${line.id} requests`).toBe(line.subtotal)
    if (['pending', 'processing', 'cancel_requested'].includes(line.status))
      expect(line.open, `open upstream line ${line.id}`).toBeGreaterThan(0)
    else
      expect([line.open, line.refunded_amount - line.by_complaint], `settled upstream line ${line.id}`).toEqual([
        0,
        Math.min(line.refundable, line.subtotal),
      ])
  }

  const failedOver = await sql<{ id: number; status: string; refund_amount: number; successors: number }>`
    SELECT d.id, d.status, d.refund_amount, (SELECT count(*) FROM dispatches f WHERE f.failover_of = d.id)::int AS successors
      FROM dispatches d WHERE d.id IN (SELECT failover_of FROM dispatches WHERE failover_of IS NOT NULL)`.execute(db)
  for (const d of failedOver.rows)
    expect(d, `failed-over request ${d.id}`).toMatchObject({ status: 'failed', refund_amount: 0, successors: 1 })

  // A paid order must have an open line behind it (the operator's queue for manual lines).
  const stranded = await sql<{ n: number }>`
    SELECT count(*) AS n FROM orders o
     WHERE o.status = 'paid' AND NOT EXISTS (SELECT 1 FROM order_lines WHERE order_id = o.id AND status IN ('pending', 'processing', 'cancel_requested'))`.execute(
    db,
  )
  expect(stranded.rows[0].n).toBe(0)
}

/** Each account's kept count of webhook deliveries (the delivery list's total) is its rows' count. */
export async function assertDeliveryTotals(db: Database) {
  const { rows } = await sql<{ account_id: number; kept: number | null; stored: number | null }>`
    SELECT account_id, t.deliveries::int AS kept, c.n::int AS stored
      FROM webhook_delivery_totals t
      FULL JOIN (SELECT account_id, count(*) AS n FROM webhook_deliveries GROUP BY 1) c USING (account_id)
     WHERE coalesce(t.deliveries, 0) <> coalesce(c.n, 0)`.execute(db)
  expect(rows, 'kept delivery totals vs deliveries').toEqual([])
}
