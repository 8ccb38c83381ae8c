import crypto from 'node:crypto'
import { type OrderDetailView, type OrderLineView } from '../orders/index.js'
import type { ComplaintEventData } from './delivery.queries.js'

export const EVENTS = ['order.paid', 'order.completed', 'order.canceled', 'order.item.sent', 'complaint.updated', 'webhook.test'] as const
export type WebhookEvent = (typeof EVENTS)[number]

/** docs/design.md §8: a payload stays under 32 KB. */
export const MAX_PAYLOAD_BYTES = 32 * 1024

type Line = Omit<OrderLineView, 'id' | 'sent_at' | 'h2h'> & { h2h_results?: OrderLineView['h2h'] }

/** What a delivery sends: the exact body and what X-Signature covers. */
export type WebhookMessage = { event: string; body: string; refId: string; invoice: string; signedStatus: string }

// Receivers read the reseller's view of a line (no internal id) with, as the public docs' payload
// shows it, an h2h line's latest provider request as `h2h_results`.
const publicLine = ({ id: _id, sent_at: _sent, h2h, ...line }: OrderLineView): Line => (h2h ? { ...line, h2h_results: h2h } : line)

/**
 * An order event with the order as of the event (items as in GET /v1/trx/{ref}); `at` is the
 * event's time. order.item.sent adds the line sent, with the order's status beside it.
 */
export function orderMessage(event: string, eventId: string, at: Date, detail: OrderDetailView, lineId: number | null): WebhookMessage {
  const sentLine = event === 'order.item.sent' ? detail.items.find((l) => l.id === lineId) : undefined
  const data: Record<string, unknown> = {
    event_id: eventId,
    id: detail.id,
    invoice: detail.invoice,
    ref_id: detail.ref_id,
    status: detail.status,
    price: detail.price,
    fees: detail.fees,
    amount: detail.amount,
    payment_code: detail.payment_method,
    payment_method: detail.payment_method,
    note: detail.note,
    payment_link: detail.payment_link,
    qr_link: detail.qr_link,
    expired_at: detail.expired_at,
    created_at: detail.created_at,
    updated_at: detail.updated_at,
    items: detail.items.map(publicLine),
    h2h_results: detail.h2h_results,
    smm_results: detail.smm_results,
  }
  if (sentLine) {
    data.transaction_status = detail.status
    // The public docs' example: the item's note is what the seller typed sending it; the buyer's stays in buyer_note.
    const line = publicLine(sentLine)
    data.item = { order_item_id: String(sentLine.id), ...line, note: line.seller_note, status: 'sent', sent_at: sentLine.sent_at }
  }
  const signedStatus = event === 'order.item.sent' ? 'item.sent' : detail.status
  return { event, body: fit(event, at, data), refId: detail.ref_id, invoice: detail.invoice, signedStatus }
}

/** complaint.updated (docs/design.md §14): the complaint as its change left it; X-Signature's S is `complaint`. */
export function complaintMessage(eventId: string, at: Date, complaint: ComplaintEventData): WebhookMessage {
  const data = { event_id: eventId, ...complaint }
  const body = JSON.stringify({ event: 'complaint.updated', timestamp: at.toISOString(), data })
  return { event: 'complaint.updated', body, refId: complaint.ref_id, invoice: complaint.invoice, signedStatus: 'complaint' }
}

/** webhook.test: non-empty placeholders, since receivers look ref_id and invoice up; stored ones on a redelivery. */
export function testMessage(eventId: string, at: Date, placeholders = newTestPlaceholders(at)): WebhookMessage {
  const { ref_id: refId, invoice } = placeholders
  const data = {
    event_id: eventId,
    id: 0,
    invoice,
    ref_id: refId,
    status: 'test',
    price: 0,
    fees: 0,
    amount: 0,
    payment_code: 'saldo',
    payment_method: 'saldo',
    created_at: at,
    updated_at: at,
    items: [],
    h2h_results: [],
    smm_results: [],
  }
  return { event: 'webhook.test', body: fit('webhook.test', at, data), refId, invoice, signedStatus: 'test' }
}

export function newTestPlaceholders(at: Date): { ref_id: string; invoice: string } {
  return { ref_id: `TEST-${at.getTime()}`, invoice: `TEST-${crypto.randomBytes(5).toString('hex').toUpperCase()}` }
}

/**
 * The body, kept under 32 KB: license texts go first, then the lines; `truncated: true` tells the
 * receiver to read the whole order with GET /v1/trx/{ref_id}.
 */
function fit(event: string, at: Date, data: Record<string, unknown>): string {
  const encode = () => JSON.stringify({ event, timestamp: at.toISOString(), data })
  let body = encode()
  if (Buffer.byteLength(body) <= MAX_PAYLOAD_BYTES) return body
  const withoutLicenses = (line: Line) => (line.licenses ? { ...line, product_license: '', licenses: [] } : line)
  data.items = (data.items as Line[]).map(withoutLicenses)
  if (data.item) data.item = withoutLicenses(data.item as Line)
  data.truncated = true
  body = encode()
  if (Buffer.byteLength(body) <= MAX_PAYLOAD_BYTES) return body
  data.items = []
  return encode()
}
