import { CompiledQuery, type Selectable } from 'kysely'
import type { Database, PreparedStatement } from '../../db/database.js'
import type { LineStatus, Order, OrderProcess, SandboxOrdersTable } from '../../db/schema.js'
import type { Vault } from '../../vault.js'
import { upstreamResultsOf, type ResultRow } from '../fulfilment/results.js'
import type { OrderDetail } from './orders.schemas.js'

/** A line as the detail statement hands it over: its columns and, for auto lines, its licenses' ciphertexts. */
type LineRow = {
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
  licenses: string[] | null
}

// The lines (licenses inside, in id order) and the upstream requests of the order whose id is `orderId`
// (an SQL expression): one statement builds the whole detail, whatever its shape.
const linesJson = (orderId: string) => `(SELECT json_agg(json_build_object(
    'id', l.id, 'item_id', l.item_id, 'variant_name', l.variant_name, 'product_name', l.product_name, 'quantity', l.quantity,
    'unit_price', l.unit_price, 'subtotal', l.subtotal, 'note', l.note, 'order_process', l.order_process, 'status', l.status,
    'delivery_enc', l.delivery_enc, 'delivery_note', l.delivery_note,
    'licenses', CASE WHEN l.order_process = 'auto'
                     THEN (SELECT json_agg(x.content_enc ORDER BY x.id) FROM licenses x WHERE x.order_line_id = l.id) END)
    ORDER BY l.position) FROM order_lines l WHERE l.order_id = ${orderId})`
const requestsJson = (orderId: string) => `(SELECT json_agg(json_build_object(
    'kind', d.kind, 'status', d.status, 'sn', d.sn, 'message', d.message, 'upstream_order_id', d.upstream_order_id,
    'upstream_status', d.upstream_status, 'start_count', d.start_count, 'remains', d.remains, 'quantity', d.quantity,
    'refund_amount', d.refund_amount, 'variant_id', l.item_id) ORDER BY l.position, d.seq)
    FROM dispatches d JOIN order_lines l ON l.id = d.order_line_id WHERE d.order_id = ${orderId})`

const BY_ID = `SELECT ${linesJson('$1')} AS lines, ${requestsJson('$1')} AS requests`

// By ref_id or invoice within one account: the order, else a top-up (same namespace), else a sandbox order.
// Each fallback runs only when what comes before it found nothing (one-time filters).
const BY_REF = `WITH o AS MATERIALIZED (
    SELECT id, ref_id, invoice, payment_method, status, price, fees, amount, created_at, updated_at
      FROM orders WHERE account_id = $1 AND (ref_id = $2 OR invoice = $2) ORDER BY id LIMIT 1
  ), t AS MATERIALIZED (
    SELECT id, ref_id, invoice, channel, amount, fee, total, payment_url, expires_at, paid_at, created_at, updated_at,
           CASE WHEN status = 'pending' AND expires_at <= now() THEN 'expired' ELSE status END AS status
      FROM topups WHERE NOT EXISTS (SELECT 1 FROM o) AND account_id = $1 AND (ref_id = $2 OR invoice = $2) ORDER BY id LIMIT 1
  )
  SELECT (SELECT row_to_json(o) FROM o) AS "order",
         ${linesJson('(SELECT id FROM o)')} AS lines,
         ${requestsJson('(SELECT id FROM o)')} AS requests,
         (SELECT row_to_json(t) FROM t) AS topup,
         (SELECT row_to_json(s) FROM (
            SELECT s.id, s.ref_id, s.invoice, s.item_id, s.quantity, s.price, s.amount, s.created_at,
                   i.name AS variant_name, p.name AS product_name, i.order_process
              FROM sandbox_orders s JOIN items i ON i.id = s.item_id JOIN products p ON p.id = i.product_id
             WHERE NOT EXISTS (SELECT 1 FROM o) AND NOT EXISTS (SELECT 1 FROM t)
               AND s.account_id = $1 AND (s.ref_id = $2 OR s.invoice = $2) LIMIT 1) s) AS sandbox`

type Json<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] }
type OrderHead = Pick<
  Order,
  'id' | 'ref_id' | 'invoice' | 'payment_method' | 'status' | 'price' | 'fees' | 'amount' | 'created_at' | 'updated_at'
>
type TopupRow = { id: number; ref_id: string; invoice: string; channel: string; status: string; amount: number; fee: number; total: number }
type TopupJson = TopupRow & { payment_url: string; expires_at: string; paid_at: string | null; created_at: string; updated_at: string }
type SandboxJson = Json<Omit<Selectable<SandboxOrdersTable>, 'account_id'>> & {
  variant_name: string
  product_name: string
  order_process: string
}
type ByRefRow = {
  order: Json<OrderHead> | null
  lines: LineRow[] | null
  requests: ResultRow[] | null
  topup: TopupJson | null
  sandbox: SandboxJson | null
}

/** The target a line was bought for: the note itself, or the `target` of a JSON note. */
export function targetOf(note: string | null): string | null {
  if (!note || !note.trimStart().startsWith('{')) return note
  try {
    const parsed = JSON.parse(note) as { target?: unknown }
    return typeof parsed.target === 'string' ? parsed.target : note
  } catch {
    return note
  }
}

export type OrderLineView = OrderDetail['items'][number] & { id: number }
export type OrderDetailView = OrderDetail & { items: OrderLineView[] }

function lineView(line: LineRow, vault: Vault): OrderLineView {
  const view: OrderLineView = {
    id: line.id,
    variant_id: line.item_id,
    variant_name: line.variant_name,
    product_name: line.product_name,
    quantity: line.quantity,
    price: line.unit_price,
    subtotal: line.subtotal,
    note: line.note,
    target: targetOf(line.note),
    order_process: line.order_process,
    status: line.status,
  }
  if (line.order_process === 'auto') {
    const licenses = (line.licenses ?? []).map((l) => vault.decrypt(l))
    view.product_license = licenses.join('\n')
    view.licenses = licenses.map((product_license) => ({ product_license, note: null }))
  } else if (line.status === 'sent') {
    const license = line.delivery_enc ? vault.decrypt(line.delivery_enc) : ''
    view.product_license = license
    view.licenses = [{ product_license: license, note: line.delivery_note }]
  }
  return view
}

function orderView(order: OrderHead, lines: LineRow[] | null, requests: ResultRow[] | null, vault: Vault): OrderDetailView {
  return {
    id: order.id,
    ref_id: order.ref_id,
    invoice: order.invoice,
    payment_method: order.payment_method,
    status: order.status,
    price: order.price,
    fees: order.fees,
    amount: order.amount,
    created_at: order.created_at,
    updated_at: order.updated_at,
    items: (lines ?? []).map((line) => lineView(line, vault)),
    ...upstreamResultsOf(requests ?? []),
  }
}

/** The full current state of an order as resellers, operators and webhooks see it (DESIGN §5), in one statement. */
export async function loadOrderDetail(db: Database, vault: Vault, order: OrderHead): Promise<OrderDetailView> {
  const { rows } = await db.executeQuery<Pick<ByRefRow, 'lines' | 'requests'>>(CompiledQuery.raw(BY_ID, [order.id]))
  return orderView(order, rows[0].lines, rows[0].requests, vault)
}

const HEAD_COLUMNS = 'o.id, o.ref_id, o.invoice, o.payment_method, o.status, o.price, o.fees, o.amount, o.created_at, o.updated_at'
const BY_IDS = `SELECT ${HEAD_COLUMNS}, ${linesJson('o.id')} AS lines, ${requestsJson('o.id')} AS requests
  FROM orders o WHERE o.id = ANY($1::int8[])`

/** Many orders' full state in one statement, however many orders: the webhook worker's batches. */
export async function loadOrderDetails(db: Database, vault: Vault, orderIds: number[]): Promise<Map<number, OrderDetailView>> {
  if (orderIds.length === 0) return new Map()
  const { rows } = await db.executeQuery<OrderHead & Pick<ByRefRow, 'lines' | 'requests'>>(CompiledQuery.raw(BY_IDS, [orderIds]))
  return new Map(rows.map(({ lines, requests, ...order }) => [order.id, orderView(order, lines, requests, vault)]))
}

const date = (text: string) => new Date(text)

function topupView(t: TopupJson): OrderDetail {
  return {
    id: t.id,
    ref_id: t.ref_id,
    invoice: t.invoice,
    payment_method: t.channel,
    status: t.status,
    price: t.amount,
    fees: t.fee,
    amount: t.amount,
    created_at: date(t.created_at),
    updated_at: date(t.updated_at),
    items: [],
    h2h_results: [],
    smm_results: [],
    type: 'topup' as const,
    total: t.total,
    payment_url: t.payment_url,
    expires_at: date(t.expires_at),
    paid_at: t.paid_at === null ? null : date(t.paid_at),
  }
}

function sandboxView(s: SandboxJson): OrderDetail {
  const created = date(s.created_at)
  return {
    id: s.id,
    ref_id: s.ref_id,
    invoice: s.invoice,
    payment_method: 'sandbox',
    status: 'sandbox',
    price: s.price,
    fees: 0,
    amount: s.amount,
    created_at: created,
    updated_at: created,
    items: [
      {
        variant_id: s.item_id,
        variant_name: s.variant_name,
        product_name: s.product_name,
        quantity: s.quantity,
        price: s.price / s.quantity,
        subtotal: s.price,
        note: null,
        target: null,
        order_process: s.order_process,
        status: 'sandbox',
      },
    ],
    h2h_results: [],
    smm_results: [],
  }
}

/**
 * GET /v1/trx/{ref}: by ref_id or invoice, only within the caller's account — an order, a top-up
 * (they share the ref_id namespace) or, last, a sandbox order. One round trip, a named prepared statement.
 */
export async function findDetailByRef(prepared: PreparedStatement, vault: Vault, accountId: number, ref: string) {
  const [row] = await prepared<ByRefRow>('trx_detail', BY_REF, [accountId, ref])
  if (row.order) {
    const o = row.order
    return orderView({ ...o, created_at: date(o.created_at), updated_at: date(o.updated_at) }, row.lines, row.requests, vault)
  }
  if (row.topup) return topupView(row.topup)
  if (row.sandbox) return sandboxView(row.sandbox)
  return undefined
}
