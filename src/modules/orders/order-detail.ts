import { isDatabaseUnavailable, type Database, type PreparedStatement } from '../../db/database.js'
import type { Vault } from '../../vault.js'
import { upstreamResultsOf, type ResultRow } from '../fulfilment/results.js'
import { batchedRead } from '../../db/batched-read.js'
import {
  findOrdersByRefs,
  findOtherByRef,
  findOrderContents,
  findOrdersWithContents,
  type LineRow,
  type OrderDetailJson,
  type OrderHead,
  type SandboxJson,
  type TopupJson,
} from './order-detail.queries.js'
import type { OrderDetail } from './orders.schemas.js'

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

export { orderDetailJson, type OrderDetailJson } from './order-detail.queries.js'

const date = (text: string) => new Date(text)

/** An order's full state from the JSON `orderDetailJson` built inside a statement. */
export function orderDetailFromJson({ order: o, lines, requests }: OrderDetailJson, vault: Vault): OrderDetailView {
  return orderView({ ...o, created_at: date(o.created_at), updated_at: date(o.updated_at) }, lines, requests, vault)
}

/** The full current state of an order as resellers, operators and webhooks see it (DESIGN §5), in one statement. */
export async function loadOrderDetail(db: Database, vault: Vault, order: OrderHead): Promise<OrderDetailView> {
  const { lines, requests } = await findOrderContents(db, order.id)
  return orderView(order, lines, requests, vault)
}

/** Many orders' full state in one statement, however many orders: the webhook worker's batches. */
export async function loadOrderDetails(db: Database, vault: Vault, orderIds: number[]): Promise<Map<number, OrderDetailView>> {
  if (orderIds.length === 0) return new Map()
  const rows = await findOrdersWithContents(db, orderIds)
  return new Map(rows.map(({ lines, requests, ...order }) => [order.id, orderView(order, lines, requests, vault)]))
}

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

export type DetailByRef = (accountId: number, ref: string) => Promise<OrderDetail | undefined>

/**
 * GET /v1/trx/{ref}: by ref_id or invoice, only within the caller's account — an order, a top-up
 * (they share the ref_id namespace) or, last, a sandbox order. What bots poll, an order, is read
 * together with the other polls of the same event-loop turn: one statement, each detail built once.
 */
export function detailByRefReader(prepared: PreparedStatement, vault: Vault): DetailByRef {
  const orders = batchedRead(
    async (keys: string[]) => {
      // A key is `accountId:ref`; the ref itself may hold colons.
      const pairs = keys.map((key) => {
        const colon = key.indexOf(':')
        return { accountId: Number(key.slice(0, colon)), ref: key.slice(colon + 1) }
      })
      const rows = await findOrdersByRefs(prepared, pairs)
      return new Map(rows.map(({ n, ...detail }) => [keys[n - 1], orderDetailFromJson(detail, vault)]))
    },
    { sharedFailure: isDatabaseUnavailable },
  )
  return async (accountId, ref) => {
    const order = await orders(`${accountId}:${ref}`)
    if (order) return order
    const { topup, sandbox } = await findOtherByRef(prepared, accountId, ref)
    if (topup) return topupView(topup)
    if (sandbox) return sandboxView(sandbox)
    return undefined
  }
}
