import type { ComplaintMessageRow } from './complaints.queries.js'
import type { OperatorComplaintRow, UpstreamRequestRow } from './operator.queries.js'

/** How a complaint stands against the SLA (COMPLAINT_SLA_HOURS): its age, and whether an operator owes an answer too long. */
export type Sla = { now: Date; hours: number }

const HOUR_MS = 60 * 60 * 1000

/** A complaint in the operator's lists: its line in a word, its age, and `overdue` while a reseller waits past the SLA. */
export function operatorRowView(c: OperatorComplaintRow, sla: Sla) {
  const waitingSince = c.status === 'open' && c.waiting_since ? new Date(c.waiting_since) : null
  const dueAt = waitingSince ? new Date(waitingSince.getTime() + sla.hours * HOUR_MS) : null
  return {
    id: c.id,
    account_id: c.account_id,
    account_name: c.account_name,
    order_id: c.order_id,
    ref_id: c.ref_id,
    invoice: c.invoice,
    order_item_id: String(c.order_line_id),
    product_name: c.product_name,
    variant_name: c.variant_name,
    order_process: c.order_process,
    reason: c.reason,
    status: c.status,
    resolution: c.resolution,
    refunded_amount: Number(c.refunded_amount),
    age_minutes: Math.max(0, Math.floor((sla.now.getTime() - new Date(c.created_at).getTime()) / 60_000)),
    waiting_since: waitingSince,
    due_at: dueAt,
    overdue: dueAt !== null && dueAt.getTime() < sla.now.getTime(),
    created_at: c.created_at,
    updated_at: c.updated_at,
    closed_at: c.closed_at,
  }
}
export type OperatorRowView = ReturnType<typeof operatorRowView>

/** A message as operators read it: who wrote it by name too. */
export const operatorMessageView = (m: ComplaintMessageRow) => ({
  id: m.id,
  author: m.author,
  author_name: m.author_name,
  action: m.action,
  message: m.body,
  created_at: m.created_at,
})

/** The line's latest upstream request, for h2h and smm lines; null otherwise. */
export const upstreamView = (r: UpstreamRequestRow | undefined) =>
  r
    ? {
        id: r.id,
        provider: r.provider,
        kind: r.kind,
        upstream_ref: r.upstream_ref,
        upstream_order_id: r.upstream_order_id,
        status: r.status,
        upstream_status: r.upstream_status,
        sn: r.sn,
        message: r.message,
      }
    : null
