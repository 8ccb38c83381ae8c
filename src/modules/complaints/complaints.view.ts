import type { ComplaintAction, ComplaintReason, ComplaintResolution, ComplaintStatus } from '../../db/schema.js'
import type { ComplaintMessageRow, ComplaintRow } from './complaints.queries.js'

/** A message as a reseller reads it: who wrote it by side only (an operator's name stays inside). */
export type ComplaintMessageView = {
  id: number
  author: 'reseller' | 'operator'
  action: ComplaintAction
  message: string
  created_at: Date
}

/** A complaint as the reseller API answers it (docs/design.md §14). */
export type ComplaintView = {
  id: number
  ref_id: string
  invoice: string
  order_item_id: string
  reason: ComplaintReason
  status: ComplaintStatus
  resolution: ComplaintResolution | null
  refunded_amount: number
  created_at: Date
  updated_at: Date
  closed_at: Date | null
  messages?: ComplaintMessageView[]
}

export const messageView = (m: ComplaintMessageRow): ComplaintMessageView => ({
  id: m.id,
  author: m.author === 'reseller' ? 'reseller' : 'operator',
  action: m.action,
  message: m.body,
  created_at: m.created_at,
})

export function complaintView(c: ComplaintRow, messages?: ComplaintMessageRow[]): ComplaintView {
  const view: ComplaintView = {
    id: c.id,
    ref_id: c.ref_id,
    invoice: c.invoice,
    order_item_id: String(c.order_line_id),
    reason: c.reason,
    status: c.status,
    resolution: c.resolution,
    refunded_amount: Number(c.refunded_amount),
    created_at: c.created_at,
    updated_at: c.updated_at,
    closed_at: c.closed_at,
  }
  if (messages) view.messages = messages.filter((m) => m.complaint_id === c.id).map(messageView)
  return view
}
