import { CompiledQuery, type Selectable } from 'kysely'
import { PREPARED, type Database, type PreparedStatement } from '../../db/database.js'
import type { LineStatus, Order, OrderProcess, SandboxOrdersTable } from '../../db/schema.js'
import { mayBeInvoice, type InvoicePrefix } from '../refids/index.js'
import type { ResultRow } from './upstream-results.view.js'

/** A line as the detail statement hands it over: its columns and, for auto lines, its licenses' ciphertexts. */
export type LineRow = {
  id: number
  item_id: number
  variant_name: string
  product_name: string
  quantity: number
  unit_price: number
  subtotal: number
  note: string | null
  order_process: OrderProcess
  status: LineStatus
  delivery_enc: string | null
  delivery_note: string | null
  delivered_at: string | null
  licenses: string[] | null
  /** The item's now (the public docs list them on a line): its product and its description ('' is none). */
  product_id: number
  description: string
  /** A postpaid line's bill, as its inquiry found it (docs/design.md §5c); else null. */
  bill: LineBill | null
}

export type LineBill = {
  customer_id: string
  customer_name: string
  period: string
  bill_count: number
  bill_amount: number
  admin_fee: number
  penalty: number
  amount: number
  details: { period: string; bill_amount: number; admin: number; penalty: number }[]
}

// A line's item `i` by items_pkey, one probe per line (OFFSET 0 keeps it a probe): as a join, statistics
// that counted many lines per order made it a hash over the whole catalog (order-detail-plan.test.ts).
const itemOf = (line: string, columns: string) => `CROSS JOIN LATERAL (SELECT ${columns} FROM items WHERE id = ${line}.item_id OFFSET 0) i`

// The lines (their sold licenses inside, in id order: a complaint's resend voids the ones it replaced) and the upstream requests of the order whose id is `orderId`
// (an SQL expression): one statement builds the whole detail, whatever its shape. The licenses go by
// their line and `sold` is a FILTER, not a condition: a condition let statistics taken before the sales
// pick the index of every sold license (order-detail-plan.test.ts).
const linesJson = (orderId: string) => `(SELECT json_agg(json_build_object(
    'id', l.id, 'item_id', l.item_id, 'variant_name', l.variant_name, 'product_name', l.product_name, 'quantity', l.quantity,
    'unit_price', l.unit_price, 'subtotal', l.subtotal, 'note', l.note, 'order_process', l.order_process, 'status', l.status,
    'delivery_enc', l.delivery_enc, 'delivery_note', l.delivery_note, 'delivered_at', l.delivered_at,
    'product_id', i.product_id, 'description', i.description,
    'bill', CASE WHEN l.order_process = 'h2h' THEN (SELECT json_build_object('customer_id', b.customer_no, 'customer_name', b.customer_name,
                 'period', b.period, 'bill_count', b.bill_count, 'bill_amount', b.bill_amount, 'admin_fee', b.admin_fee, 'penalty', b.penalty,
                 'amount', b.amount, 'details', b.details) FROM bill_inquiries b WHERE b.order_line_id = l.id) END,
    'licenses', CASE WHEN l.order_process = 'auto'
                     THEN (SELECT json_agg(x.content_enc ORDER BY x.id) FILTER (WHERE x.status = 'sold') FROM licenses x WHERE x.order_line_id = l.id) END)
    ORDER BY l.position) FROM order_lines l ${itemOf('l', 'product_id, description')} WHERE l.order_id = ${orderId})`
const requestsJson = (orderId: string) => `(SELECT json_agg(json_build_object(
    'kind', d.kind, 'status', d.status, 'sn', d.sn, 'message', d.message, 'upstream_order_id', d.upstream_order_id,
    'upstream_status', d.upstream_status, 'start_count', d.start_count, 'remains', d.remains, 'quantity', d.quantity,
    'refund_amount', d.refund_amount, 'variant_id', l.item_id, 'line_id', d.order_line_id, 'upstream_ref', d.upstream_ref,
    'provider', d.provider, 'provider_meta', i.provider_meta, 'id', d.id, 'failover_of', d.failover_of, 'provider_code', d.provider_code,
    'amount', d.amount, 'cost', d.cost) ORDER BY l.position, d.seq)
    FROM dispatches d JOIN order_lines l ON l.id = d.order_line_id ${itemOf('l', 'provider_meta')} WHERE d.order_id = ${orderId})`

const BY_ID = `SELECT ${linesJson('$1')} AS lines, ${requestsJson('$1')} AS requests`

// The rows of account `account` with ref_id or invoice `ref` (SQL expressions), by two unique-index
// probes (account_id, ref_id) and (invoice) whatever plan a prepared statement settles on: `ref_id =
// $2 OR invoice = $2` let a generic plan walk all of the account's rows and filter. The invoice probe
// runs only for a ref shaped like the table's invoices (`prefix`), so most polls make one probe.
const byRef = (
  table: string,
  prefix: InvoicePrefix,
  account = '$1',
  ref = '$2',
) => `(SELECT * FROM ${table} WHERE account_id = ${account} AND ref_id = ${ref}
      UNION ALL
      SELECT * FROM ${table} WHERE invoice = ${ref} AND account_id = ${account} AND ${mayBeInvoice(prefix, ref)})`

// Orders by (account, ref_id or invoice) pairs, each with its contents: $1 the accounts, $2 the refs;
// `n` names the pair (from 1). The LIMIT keeps every pair; it makes a generic plan expect one pair, not
// an array parameter's ten, so PostgreSQL keeps that plan rather than planning each poll anew (0.45 ms).
const ORDERS_BY_REFS = `SELECT r.n, row_to_json(o) AS "order", ${linesJson('o.id')} AS lines, ${requestsJson('o.id')} AS requests
  FROM (SELECT * FROM unnest($1::int8[], $2::text[]) WITH ORDINALITY AS r(account_id, ref, n) LIMIT cardinality($1::int8[])) r
  CROSS JOIN LATERAL (
    SELECT id, ref_id, invoice, payment_method, status, price, fees, amount, created_at, updated_at
      FROM ${byRef('orders', 'INV', 'r.account_id', 'r.ref')} f ORDER BY id LIMIT 1) o`

// No order by that ref: a top-up (the namespace is shared), else a sandbox order; the sandbox
// is looked up only when no top-up matched.
const OTHER_BY_REF = `WITH t AS MATERIALIZED (
    -- A top-up an operator resolved with another amount shows what was credited.
    SELECT id, ref_id, invoice, channel, CASE WHEN status = 'paid' THEN coalesce(credited_amount, amount) ELSE amount END AS amount,
           fee, total, payment_url, expires_at, paid_at, created_at, updated_at,
           CASE WHEN status = 'pending' AND expires_at <= now() THEN 'expired' ELSE status END AS status,
           (SELECT c.type FROM payment_channels c WHERE c.code = f.channel) AS channel_type
      FROM ${byRef('topups', 'TOP')} f ORDER BY id LIMIT 1
  )
  SELECT (SELECT row_to_json(t) FROM t) AS topup,
         (SELECT row_to_json(s) FROM (
            SELECT s.id, s.ref_id, s.invoice, s.item_id, s.quantity, s.price, s.amount, s.created_at,
                   i.name AS variant_name, i.product_id, p.name AS product_name, i.order_process, i.description
              FROM ${byRef('sandbox_orders', 'SBX')} s JOIN items i ON i.id = s.item_id JOIN products p ON p.id = i.product_id
             WHERE NOT EXISTS (SELECT 1 FROM t) LIMIT 1) s) AS sandbox`

type Json<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] }
export type OrderHead = Pick<
  Order,
  'id' | 'ref_id' | 'invoice' | 'payment_method' | 'status' | 'price' | 'fees' | 'amount' | 'created_at' | 'updated_at'
>
type TopupRow = {
  id: number
  ref_id: string
  invoice: string
  channel: string
  /** The channel's type (qris, va, …); null if the channel was deleted since. */
  channel_type: string | null
  status: string
  amount: number
  fee: number
  total: number
}
export type TopupJson = TopupRow & {
  payment_url: string
  expires_at: string
  paid_at: string | null
  created_at: string
  updated_at: string
}
export type SandboxJson = Json<Omit<Selectable<SandboxOrdersTable>, 'account_id'>> & {
  variant_name: string
  product_id: number
  product_name: string
  order_process: string
  description: string
}
type Contents = { lines: LineRow[] | null; requests: ResultRow[] | null }
export type OtherByRefRow = { topup: TopupJson | null; sandbox: SandboxJson | null }

/** An order's lines (licenses still encrypted) and upstream requests, in one statement. */
export async function findOrderContents(db: Database, orderId: number): Promise<Contents> {
  const { rows } = await db.executeQuery<Contents>(CompiledQuery.raw(BY_ID, [orderId]))
  return rows[0]
}

const HEAD_COLUMNS = 'o.id, o.ref_id, o.invoice, o.payment_method, o.status, o.price, o.fees, o.amount, o.created_at, o.updated_at'

export type OrderDetailJson = Contents & { order: Json<OrderHead> }

/**
 * The whole detail of the order whose id is `orderId` (an SQL expression) as one JSON value, for a
 * statement of another module that hands it over with its own rows: the webhook relay's batches
 * carry their orders' details and spare the worker a read per batch.
 */
export const orderDetailJson = (orderId: string) => `(SELECT json_build_object('order', row_to_json(h), 'lines', ${linesJson('h.id')},
    'requests', ${requestsJson('h.id')}) FROM (SELECT ${HEAD_COLUMNS} FROM orders o WHERE o.id = ${orderId}) h)`
const BY_IDS = `${PREPARED}SELECT ${HEAD_COLUMNS}, ${linesJson('o.id')} AS lines, ${requestsJson('o.id')} AS requests
  FROM orders o WHERE o.id = ANY($1::int8[])`

/** Many orders with their contents in one statement, however many orders (the webhook worker's, prepared on its keyed pool). */
export async function findOrdersWithContents(db: Database, orderIds: number[]): Promise<(OrderHead & Contents)[]> {
  const { rows } = await db.executeQuery<OrderHead & Contents>(CompiledQuery.raw(BY_IDS, [orderIds]))
  return rows
}

export type RefPair = { accountId: number; ref: string }
export type OrderByRefRow = OrderDetailJson & { n: number }

/** Orders by ref_id or invoice, each within its account, with their contents: many polls, one statement. */
export async function findOrdersByRefs(prepared: PreparedStatement, pairs: RefPair[]): Promise<OrderByRefRow[]> {
  const accounts = pairs.map((p) => p.accountId)
  const refs = pairs.map((p) => p.ref)
  return prepared<OrderByRefRow>('trx_details', ORDERS_BY_REFS, [accounts, refs])
}

/** No order by that ref in the account: a top-up, else a sandbox order (a named prepared statement). */
export async function findOtherByRef(prepared: PreparedStatement, accountId: number, ref: string): Promise<OtherByRefRow> {
  const [other] = await prepared<OtherByRefRow>('trx_detail_other', OTHER_BY_REF, [accountId, ref])
  return other
}
