import { isDatabaseUnavailable, type Database, type PreparedStatement } from '../../db/database.js'
import type { Vault } from '../../vault.js'
import {
  latestH2hByLine,
  smmStatusByLine,
  upstreamRequestsOf,
  upstreamResultsOf,
  type LineH2hResult,
  type ResultRow,
} from './upstream-results.view.js'
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

/**
 * A line as resellers, operators and webhooks see it, with what only some of them show: its id
 * (operators), when it was sent and its latest provider request (webhooks).
 */
export type OrderLineView = OrderDetail['items'][number] & { id: number; sent_at: Date | null; h2h?: LineH2hResult }
export type OrderDetailView = Omit<OrderDetail, 'items'> & {
  items: OrderLineView[]
  /** Operators only: every upstream request, failed-over ones included. */
  requests?: ReturnType<typeof upstreamRequestsOf>
}

/**
 * Who reads: resellers (the API and webhooks) see a delivered line as `completed`, the public docs'
 * word; operators see the line's own state.
 */
type Audience = 'reseller' | 'operator'

type Upstream = { h2h: Map<number, LineH2hResult>; smm: Map<number, string | null> }

function lineView(line: LineRow, vault: Vault, { h2h, smm }: Upstream, audience: Audience): OrderLineView {
  const view: OrderLineView = {
    id: line.id,
    order_item_id: String(line.id),
    variant_id: line.item_id,
    variant_name: line.variant_name,
    product_id: line.product_id,
    product_name: line.product_name,
    quantity: line.quantity,
    qty: line.quantity,
    price: line.unit_price,
    subtotal: line.subtotal,
    note: line.note,
    buyer_note: line.note,
    target: targetOf(line.note),
    order_process: line.order_process,
    status: audience === 'reseller' && line.status === 'delivered' ? 'completed' : line.status,
    product_license: null,
    seller_note: line.delivery_note,
    description: line.description || null,
    sent_at: line.delivered_at === null ? null : new Date(line.delivered_at),
  }
  if (line.order_process === 'auto') {
    const licenses: { product_license: string; note: string | null }[] = (line.licenses ?? []).map((l) => ({
      product_license: vault.decrypt(l),
      note: null,
    }))
    // A complaint's typed resend took the place of the licenses (they turned void).
    if (line.delivery_enc) licenses.push({ product_license: vault.decrypt(line.delivery_enc), note: line.delivery_note })
    view.product_license = licenses.map((l) => l.product_license).join('\n')
    view.licenses = licenses
  } else if (line.status === 'sent' || (line.delivery_enc && line.status === 'delivered')) {
    // A manual line sent, or an upstream line a complaint's typed resend delivered again.
    const license = line.delivery_enc ? vault.decrypt(line.delivery_enc) : ''
    view.product_license = license
    view.licenses = [{ product_license: license, note: line.delivery_note }]
  }
  // The public docs' SMM sample: the item says it is an smm line, with the panel's own word.
  if (line.order_process === 'smm') Object.assign(view, { is_smm: true, provider_status: smm.get(line.id) ?? null })
  if (line.bill) {
    // A bill's line: whose bill, for which periods, and how its amount is made up (docs/design.md §5c).
    const { customer_name, period, ...bill } = line.bill
    Object.assign(view, { customer_name, period, bill })
  }
  const request = h2h.get(line.id)
  if (request) view.h2h = request
  return view
}

function orderView(
  order: OrderHead,
  lines: LineRow[] | null,
  requests: ResultRow[] | null,
  vault: Vault,
  audience: Audience = 'reseller',
): OrderDetailView {
  const upstream = { h2h: latestH2hByLine(requests ?? []), smm: smmStatusByLine(requests ?? []) }
  return {
    id: order.id,
    ref_id: order.ref_id,
    invoice: order.invoice,
    payment_method: order.payment_method,
    status: order.status,
    price: order.price,
    fees: order.fees,
    amount: order.amount,
    // A balance purchase has no payment page, QR or expiry (docs/design.md §5).
    note: null,
    payment_link: null,
    qr_link: null,
    expired_at: null,
    created_at: order.created_at,
    updated_at: order.updated_at,
    items: (lines ?? []).map((line) => lineView(line, vault, upstream, audience)),
    ...upstreamResultsOf(requests ?? []),
    ...(audience === 'operator' && { requests: upstreamRequestsOf(requests ?? []) }),
  }
}

export { orderDetailJson, type OrderDetailJson } from './order-detail.queries.js'

const date = (text: string) => new Date(text)

/** An order's full state from the JSON `orderDetailJson` built inside a statement. */
export function orderDetailFromJson({ order: o, lines, requests }: OrderDetailJson, vault: Vault): OrderDetailView {
  return orderView({ ...o, created_at: date(o.created_at), updated_at: date(o.updated_at) }, lines, requests, vault)
}

/** The full current state of an order as operators see it (docs/design.md §5), in one statement. */
export async function loadOrderDetail(db: Database, vault: Vault, order: OrderHead): Promise<OrderDetailView> {
  const { lines, requests } = await findOrderContents(db, order.id)
  return orderView(order, lines, requests, vault, 'operator')
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
    amount: t.amount + t.fee,
    note: null,
    payment_link: t.payment_url,
    // No QR image is kept apart: a QRIS top-up's payment page is where its code is shown.
    qr_link: t.channel_type === 'qris' ? t.payment_url : null,
    expired_at: date(t.expires_at),
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
    note: null,
    payment_link: null,
    qr_link: null,
    expired_at: null,
    created_at: created,
    updated_at: created,
    items: [
      {
        variant_id: s.item_id,
        variant_name: s.variant_name,
        product_id: s.product_id,
        product_name: s.product_name,
        quantity: s.quantity,
        qty: s.quantity,
        price: s.price / s.quantity,
        subtotal: s.price,
        note: null,
        buyer_note: null,
        target: null,
        order_process: s.order_process,
        status: 'sandbox',
        product_license: null,
        seller_note: null,
        description: s.description || null,
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
