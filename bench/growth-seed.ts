/**
 * The growth bench's bulk rows, set-based (generate_series), in chunks of a million so no
 * statement holds gigabytes. Foreign-key triggers are off for the session (replica role): the
 * ids are correct by construction. Licenses reuse the ciphertext of a real sold license.
 */
const CHUNK = 1_000_000

export function growthSeedSql(p: { scale: number; filler: number; whale: number }): [string, string][] {
  const accounts = Math.max(10, Math.round(100_000 * p.scale))
  const orders = Math.max(100, Math.round(10_000_000 * p.scale))
  const ledger = Math.max(100, Math.round(20_000_000 * p.scale))
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
      `WITH o AS (
         INSERT INTO orders (account_id, ref_id, invoice, status, price, fees, amount, created_at, updated_at, finished_at)
         SELECT ${owner('g')}, 'g' || g, 'GRW' || g,
                CASE g % 20 WHEN 1 THEN 'paid' WHEN 2 THEN 'canceled' ELSE 'completed' END, 1000, 0, 1000,
                now() - (${orders} - g) * interval '1 second', now(), now()
           FROM generate_series(${from}, ${to}) g
         RETURNING id, created_at)
       INSERT INTO order_lines (order_id, position, item_id, order_process, product_name, variant_name, quantity, unit_price, subtotal, status, delivered_at)
       SELECT id, 0, ${p.filler}, 'auto', 'Growth Product 49', 'Variant 3', 1, 1000, 1000, 'delivered', created_at FROM o`,
    ])
  }
  // Half the lines carry a sold license: 5M at scale 1.
  const lineFrom = `(SELECT min(l.id) FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.ref_id = 'g1')`
  for (let from = 0; from < orders; from += 2 * CHUNK) {
    out.push([
      `licenses of lines ${from}-${from + 2 * CHUNK}`,
      `INSERT INTO licenses (item_id, content_enc, fingerprint, status, order_line_id, created_at, sold_at)
       SELECT ${p.filler}, (SELECT content_enc FROM licenses WHERE status = 'sold' LIMIT 1), 'grw-' || l.id, 'sold', l.id, l.delivered_at, l.delivered_at
         FROM order_lines l
        WHERE l.id >= ${lineFrom} + ${from} AND l.id < ${lineFrom} + ${from + 2 * CHUNK} AND l.id % 2 = 0`,
    ])
  }
  for (let from = 1; from <= ledger; from += 2 * CHUNK) {
    const to = Math.min(ledger, from + 2 * CHUNK - 1)
    out.push([
      `ledger entries ${from}-${to}`,
      `INSERT INTO ledger_entries (account_id, direction, type, amount, balance_before, balance_after, description, invoice, created_at)
       SELECT ${owner('g')}, CASE WHEN g % 10 = 5 THEN 'credit' ELSE 'debit' END, CASE WHEN g % 10 = 5 THEN 'adjustment' ELSE 'purchase' END,
              1000, 1000000 + (g % 10 <> 5)::int * 1000, 1000000 + (g % 10 = 5)::int * 1000, 'growth', 'GRW' || g, now() - (${ledger} - g) * interval '1 second'
         FROM generate_series(${from}, ${to}) g`,
    ])
  }
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
  out.push(['vacuum analyze', `VACUUM (ANALYZE) accounts, orders, order_lines, licenses, ledger_entries`])
  out.push(['session reset', `RESET session_replication_role`])
  return out
}
