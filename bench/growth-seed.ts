/**
 * The growth bench's bulk rows, set-based (generate_series), in chunks of a million or two so no
 * statement holds gigabytes. Foreign-key triggers are off for the session (replica role): the
 * ids are correct by construction. Licenses reuse the ciphertext of a real sold license.
 *
 * The shape of a shop some years in: orders spread evenly over YEARS (most rows old, id order is
 * time order), half their lines `auto` with a sold license, half `h2h` with an upstream request;
 * the ledger over the same years; webhook deliveries for the last RETENTION_DAYS only (the
 * retention worker prunes older ones); operators' audit rows over the years.
 */
import { YEARS, growthRecordsSql } from './growth-seed-records.js'

const CHUNK = 1_000_000

export function growthSeedSql(p: { scale: number; filler: number; whale: number }): [string, string][] {
  const accounts = Math.max(10, Math.round(100_000 * p.scale))
  const orders = Math.max(100, Math.round(10_000_000 * p.scale))
  const ledger = Math.max(100, Math.round(20_000_000 * p.scale))
  const span = YEARS * 365 * 86_400
  const secondsPerOrder = span / orders
  const perDay = Math.round(86_400 / secondsPerOrder)
  const bulk = `(SELECT min(id) FROM accounts WHERE name LIKE 'bulk %')`
  // Every tenth row is the whale's: one account with a tenth of everything.
  const owner = (g: string) => `CASE WHEN ${g} % 10 = 0 THEN ${p.whale} ELSE ${bulk} + ${g} % ${accounts} END`
  const out: [string, string][] = [
    ['session', `SET session_replication_role = replica; SET synchronous_commit = off; SET maintenance_work_mem = '256MB'`],
    [`${accounts} accounts`, `INSERT INTO accounts (name, balance) SELECT 'bulk ' || g, 1000000 FROM generate_series(1, ${accounts}) g`],
  ]
  for (let from = 1; from <= orders; from += CHUNK) {
    const to = Math.min(orders, from + CHUNK - 1)
    out.push([
      `orders and lines ${from}-${to}`,
      // Still paid (in progress): a few of the last day's; every older one finished.
      `WITH o AS (
         INSERT INTO orders (account_id, ref_id, invoice, status, price, fees, amount, created_at, updated_at, finished_at)
         SELECT ${owner('g')}, 'g' || g, 'GRW' || g,
                CASE WHEN g % 20 = 2 THEN 'canceled' WHEN g % 20 = 1 AND g > ${orders - perDay} THEN 'paid' ELSE 'completed' END, 1000, 0, 1000,
                t, t, t
           FROM generate_series(${from}, ${to}) g, LATERAL (SELECT now() - (${orders} - g) * interval '${secondsPerOrder} seconds' AS t) at
         RETURNING id, created_at)
       INSERT INTO order_lines (order_id, position, item_id, order_process, product_name, variant_name, quantity, unit_price, subtotal, status, delivered_at)
       SELECT id, 0, ${p.filler}, CASE WHEN id % 2 = 0 THEN 'auto' ELSE 'h2h' END, 'Growth Product 49', 'Variant 3', 1, 1000, 1000, 'delivered', created_at FROM o`,
    ])
  }
  // The first seeded line, by the invoice's unique index (a ref_id alone has none).
  const lineFrom = `(SELECT l.id FROM order_lines l WHERE l.order_id = (SELECT id FROM orders WHERE invoice = 'GRW1'))`
  // The auto half carries a sold license each: 5M at scale 1.
  for (let from = 0; from < orders; from += 2 * CHUNK) {
    out.push([
      `licenses of lines ${from}-${from + 2 * CHUNK}`,
      `INSERT INTO licenses (item_id, content_enc, fingerprint, status, order_line_id, created_at, sold_at)
       SELECT ${p.filler}, (SELECT content_enc FROM licenses WHERE status = 'sold' LIMIT 1), 'grw-' || l.id, 'sold', l.id, l.delivered_at, l.delivered_at
         FROM order_lines l
        WHERE l.id >= ${lineFrom} + ${from} AND l.id < ${lineFrom} + ${from + 2 * CHUNK} AND l.order_process = 'auto'`,
    ])
  }
  for (let from = 1; from <= ledger; from += 2 * CHUNK) {
    const to = Math.min(ledger, from + 2 * CHUNK - 1)
    out.push([
      `ledger entries ${from}-${to}`,
      `INSERT INTO ledger_entries (account_id, direction, type, amount, balance_before, balance_after, description, invoice, created_at)
       SELECT ${owner('g')}, CASE WHEN g % 10 = 5 THEN 'credit' ELSE 'debit' END, CASE WHEN g % 10 = 5 THEN 'adjustment' ELSE 'purchase' END,
              1000, 1000000 + (g % 10 <> 5)::int * 1000, 1000000 + (g % 10 = 5)::int * 1000, 'growth', 'GRW' || g,
              now() - (${ledger} - g) * interval '${span / ledger} seconds'
         FROM generate_series(${from}, ${to}) g`,
    ])
  }
  out.push(...growthRecordsSql({ scale: p.scale, filler: p.filler, whale: p.whale, orders, secondsPerOrder, lineFrom }, CHUNK))
  // The accounts' list totals (post_ledger_entry and purchase() keep them for rows they add).
  out.push([
    'list counters',
    // One aggregate pass per table: a count per account would walk every row by index, page by page.
    `UPDATE accounts a SET orders_count = coalesce(o.n, 0), ledger_count = coalesce(l.n, 0)
       FROM accounts x
       LEFT JOIN (SELECT account_id, count(*) AS n FROM orders GROUP BY account_id) o ON o.account_id = x.id
       LEFT JOIN (SELECT account_id, count(*) AS n FROM ledger_entries GROUP BY account_id) l ON l.account_id = x.id
      WHERE a.id = x.id`,
  ])
  // The replica role kept the deliveries' triggers (webhooks.sql) from counting the seeded rows: counted
  // here in one pass, over whatever the set-up's own deliveries had counted.
  out.push([
    'delivery totals',
    `INSERT INTO webhook_delivery_totals AS t (account_id, deliveries)
     SELECT account_id, count(*) FROM webhook_deliveries GROUP BY account_id
     ON CONFLICT (account_id) DO UPDATE SET deliveries = EXCLUDED.deliveries`,
  ])
  const tables =
    'accounts, orders, order_lines, licenses, ledger_entries, dispatches, webhook_deliveries, webhook_delivery_totals, audit_log'
  out.push(['vacuum', `VACUUM ${tables}`])
  out.push(['analyze', `ANALYZE ${tables}`])
  // A snapshot held meanwhile by another session on the database leaves the newest rows' pages not
  // yet all-visible (index-only scans then read the heap: 82k deliveries at 0 of 5,871 pages); a
  // second pass marks them and skips every page already marked.
  out.push(['vacuum again', `VACUUM ${tables}`])
  out.push(['session reset', `RESET session_replication_role`])
  return out
}
