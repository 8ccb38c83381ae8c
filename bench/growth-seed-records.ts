/**
 * The growth seed's records beside the orders: an upstream request (dispatch) for each h2h line,
 * webhook deliveries for the orders of the last RETENTION_DAYS (what retention leaves), and
 * operators' audit rows (a tenth of a row per order at scale 1) spread over the same years.
 */
export const YEARS = 3
const RETENTION_DAYS = 90 // the service's default

export type SeedShape = { scale: number; filler: number; whale: number; orders: number; secondsPerOrder: number; lineFrom: string }

export function growthRecordsSql(p: SeedShape, chunk: number): [string, string][] {
  const out: [string, string][] = [
    [
      'upstream provider',
      `INSERT INTO providers (code, kind, base_url) VALUES ('growth', 'digiflazz', 'http://127.0.0.1:9/') ON CONFLICT DO NOTHING`,
    ],
  ]
  for (let from = 0; from < p.orders; from += 2 * chunk) {
    out.push([
      `upstream requests of lines ${from}-${from + 2 * chunk}`,
      `INSERT INTO dispatches (order_id, order_line_id, seq, provider, kind, upstream_ref, provider_code, target, quantity, amount,
                               status, upstream_order_id, upstream_status, sn, message, attempts, next_attempt_at, first_sent_at,
                               created_at, updated_at, finished_at, cost)
       SELECT l.order_id, l.id, 0, 'growth', 'digiflazz', 'GRWD' || l.id, 'g-pulsa', '0812' || lpad((l.id % 100000000)::text, 8, '0'), 1, 1000,
              'completed', 'U' || l.id, 'Sukses', 'SN' || l.id || '/GROWTH', 'Transaksi Sukses', 1, l.delivered_at, l.delivered_at,
              l.delivered_at, l.delivered_at, l.delivered_at + interval '2 seconds', 950
         FROM order_lines l
        WHERE l.id >= ${p.lineFrom} + ${from} AND l.id < ${p.lineFrom} + ${from + 2 * chunk} AND l.order_process = 'h2h'`,
    ])
  }
  // The deliveries retention keeps: one order.completed per order of the last RETENTION_DAYS.
  const kept = Math.min(p.orders, Math.round((RETENTION_DAYS * 86_400) / p.secondsPerOrder))
  const firstKept = `(SELECT id FROM orders WHERE invoice = 'GRW${p.orders - kept + 1}')`
  for (let from = 0; from < kept; from += chunk) {
    out.push([
      `webhook deliveries ${from}-${Math.min(kept, from + chunk)} of ${kept}`,
      deliveriesOf(`o.id >= ${firstKept} + ${from} AND o.id < ${firstKept} + ${Math.min(kept, from + chunk)}`),
    ])
  }
  const audits = Math.max(100, Math.round(1_000_000 * p.scale))
  const span = YEARS * 365 * 86_400
  for (let from = 1; from <= audits; from += chunk) {
    const to = Math.min(audits, from + chunk - 1)
    out.push([
      `audit rows ${from}-${to}`,
      `INSERT INTO audit_log (at, actor_id, actor, role, client_ip, request_id, action, target_type, target_id, change, changes)
       SELECT now() - (${audits} - g) * interval '${span / audits} seconds', g % 7 + 1, 'operator ' || g % 7, 'admin', '10.0.0.' || g % 7,
              'req-' || g, CASE g % 3 WHEN 0 THEN 'PATCH /items/{id}' WHEN 1 THEN 'POST /providers/{code}/sync' ELSE 'POST /resellers/{id}/balance' END,
              CASE g % 3 WHEN 0 THEN 'items' WHEN 1 THEN 'items' ELSE 'accounts' END, (g % 5000)::text, 'update',
              jsonb_build_object('price', jsonb_build_object('before', 1000 + g % 97, 'after', 1050 + g % 97))
         FROM generate_series(${from}, ${to}) g`,
    ])
  }
  return out
}

/** One delivered order.completed per order matching `where` (on `orders o`), as the worker records it. */
export function deliveriesOf(where: string): string {
  return `INSERT INTO webhook_deliveries (account_id, event, order_id, webhook_id, status, claims, created_at, delivered_at, attempts, payload)
       SELECT o.account_id, 'order.completed', o.id, 'evt_' || md5('growth:' || o.id), 'delivered', 1, o.created_at,
              o.created_at + interval '200 milliseconds',
              jsonb_build_array(jsonb_build_object('attempted_at', o.created_at + interval '150 milliseconds', 'status_code', 200,
                                                   'duration_ms', 48, 'error', null)),
              jsonb_build_object('timestamp', o.created_at, 'order', jsonb_build_object('id', o.id, 'ref_id', o.ref_id, 'invoice', o.invoice,
                                 'status', o.status, 'price', o.price, 'fees', o.fees, 'amount', o.amount, 'created_at', o.created_at))
         FROM orders o
        WHERE ${where}`
}
