import { inTransaction, type Database, type Trx } from '../../db/database.js'
import type { ComplaintReason, ComplaintStatus } from '../../db/schema.js'
import { AppError } from '../../errors.js'
import { lockComplaint, messagesOf, recordStep, refundComplaint, type ComplaintRow } from './complaints.queries.js'
import { findOperatorComplaint, latestUpstreamRequest, listOperatorComplaints } from './operator.queries.js'
import { operatorMessageView, operatorRowView, upstreamView, type Sla } from './operator.view.js'

// The operator's side of complaints (docs/design.md §14): the queue, one complaint, and the steps that
// answer or close it. Each step writes the operator's name in the thread; the admin API and the
// console run it acting, so the audit log has it too. Resend and re-check: operator-resend.service.ts,
// operator-recheck.service.ts.

export type ComplaintListQuery = {
  view: 'queue' | 'all'
  status?: ComplaintStatus
  reason?: ComplaintReason
  account_id?: number
  page: number
  per_page: number
}

/** GET /complaints: the queue (not closed, oldest first) or every complaint (newest first), each against the SLA. */
export async function listOperatorQueue(db: Database, sla: Sla, q: ComplaintListQuery) {
  if (q.view === 'queue' && q.status === 'closed') {
    throw new AppError('VALIDATION_ERROR', { fieldErrors: { status: ['closed complaints are not in the queue: add view=all'] } })
  }
  const filter = { queue: q.view === 'queue', status: q.status, reason: q.reason, accountId: q.account_id }
  const { rows, total } = await listOperatorComplaints(db, filter, { limit: q.per_page, offset: (q.page - 1) * q.per_page })
  return { rows: rows.map((r) => operatorRowView(r, sla)), total }
}

/** GET /complaints/{id}: the complaint, its thread with names, its order and line, the line's latest upstream request. */
export async function getOperatorComplaint(db: Database, sla: Sla, id: number) {
  const c = await findOperatorComplaint(db, id)
  if (!c) throw new AppError('COMPLAINT_NOT_FOUND')
  const [messages, upstream] = await Promise.all([messagesOf(db, [id]), latestUpstreamRequest(db, c.order_line_id)])
  return {
    ...operatorRowView(c, sla),
    order: { id: c.order_id, ref_id: c.ref_id, invoice: c.invoice, status: c.order_status },
    line: {
      id: c.order_line_id,
      product_name: c.product_name,
      variant_name: c.variant_name,
      order_process: c.order_process,
      status: c.line_status,
      quantity: c.quantity,
      subtotal: Number(c.subtotal),
      refunded_amount: Number(c.line_refunded_amount),
      delivered_at: c.delivered_at,
      upstream: upstreamView(upstream),
    },
    messages: messages.map(operatorMessageView),
  }
}
export type OperatorComplaintView = Awaited<ReturnType<typeof getOperatorComplaint>>

/** The complaint's row locked for a step, refused once closed. */
export async function lockOpenComplaint(trx: Trx, id: number): Promise<ComplaintRow> {
  const c = await lockComplaint(trx, id)
  if (!c) throw new AppError('COMPLAINT_NOT_FOUND')
  refuseClosed(c)
  return c
}

/** A closed complaint takes no more steps. */
export function refuseClosed(c: { status: ComplaintStatus }): void {
  if (c.status === 'closed') {
    throw new AppError('COMPLAINT_NOT_ALLOWED', { fieldErrors: { id: ['the complaint is closed: nothing more to do on it'] } })
  }
}

/** POST /complaints/{id}/reply: the operator's answer; the complaint waits for the reseller (`answered`). */
export async function replyToComplaint(db: Database, sla: Sla, id: number, message: string, operatorName: string) {
  await inTransaction(db, async (trx) => {
    await lockOpenComplaint(trx, id)
    await recordStep(trx, id, { author: 'operator', authorName: operatorName, action: 'reply', body: message, status: 'answered' })
  })
  return getOperatorComplaint(db, sla, id)
}

/** POST /complaints/{id}/reject: closed `rejected`, the reason told to the reseller. */
export async function rejectComplaint(db: Database, sla: Sla, id: number, reason: string, operatorName: string) {
  await inTransaction(db, async (trx) => {
    await lockOpenComplaint(trx, id)
    await recordStep(trx, id, {
      author: 'operator',
      authorName: operatorName,
      action: 'reject',
      body: reason,
      status: 'closed',
      resolution: 'rejected',
    })
  })
  return getOperatorComplaint(db, sla, id)
}

/**
 * POST /complaints/{id}/refund: what is left of the line's subtotal credited exactly once (refund_complaint
 * in complaints.sql holds the order, then the complaint); a line still in flight, refunded already, or a
 * closed complaint is COMPLAINT_NOT_ALLOWED.
 */
export async function refundComplaintLine(db: Database, sla: Sla, id: number, message: string | undefined, operatorName: string) {
  await inTransaction(db, async (trx) => {
    await refundComplaint(trx, id, operatorName, message ?? null)
  })
  return getOperatorComplaint(db, sla, id)
}
