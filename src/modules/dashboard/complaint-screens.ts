import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.js'
import { getTransaction, type OrderLineView } from '../orders/index.js'
import { findChannel } from '../topups/index.js'
import { getComplaint, listOrderComplaints, takesComplaint, type ComplaintView, type ComplaintWindow } from '../complaints/index.js'

// What the transaction page and a complaint's page show of complaints, and the state of a form sent
// back with its refusals (the typed message kept, each sentence next to its field).

/** A complaint form sent back: which one (a line's open form, a complaint's reply form), what was typed, what is wrong. */
export type ComplaintForm =
  | { kind: 'open'; line: number; reason: string; message: string; errors: Record<string, string> }
  | { kind: 'reply'; complaint: number; message: string; errors: Record<string, string> }

/** The account's transaction with its lines' ids (what a complaint names as order_item_id): the detail read carries them. */
export async function transactionOf(ctx: AppContext, accountId: number, ref: string) {
  const order = await getTransaction(ctx.detailByRef, accountId, ref)
  return { ...order, created_at: new Date(order.created_at), items: order.items as OrderLineView[] }
}

export const complaintWindow = (ctx: AppContext): ComplaintWindow => ({ now: ctx.clock.now(), days: ctx.config.complaintDays })

/** The transaction page: the order, each line's complaints (oldest first) and whether it takes a new one. */
export async function showOrder(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  ref: string,
  extra: { form?: ComplaintForm; done?: string } = {},
) {
  const accountId = request.dashboardUser.account_id
  const order = await transactionOf(ctx, accountId, ref)
  // Only an order's lines have ids; a top-up (no lines) or a sandbox order (a line without one) takes no complaint.
  const isOrder = order.items.some((l) => l.id !== undefined)
  const complaints = isOrder ? await listOrderComplaints(ctx.db, accountId, order.invoice) : []
  const window = complaintWindow(ctx)
  const lines = order.items.map((line) => {
    const own = complaints.filter((c) => c.order_item_id === String(line.id))
    const canOpen = isOrder && own.every((c) => c.status === 'closed') && takesComplaint(window, order.created_at, line.status)
    return { line, complaints: own, canOpen }
  })
  // A top-up's page names its channel as the top-up page does.
  const channelName = isOrder ? undefined : (await findChannel(ctx.db, order.payment_method ?? ''))?.name
  return reply.screen('order.eta', { order, lines, channelName, ...extra })
}

/** A complaint's page: its thread, its line and order, the reply form while it is not closed. */
export async function showComplaint(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  id: number,
  extra: { form?: ComplaintForm; done?: string } = {},
) {
  const accountId = request.dashboardUser.account_id
  const complaint: ComplaintView = await getComplaint(ctx.db, accountId, id)
  const order = await transactionOf(ctx, accountId, complaint.invoice)
  const line = order.items.find((l) => String(l.id) === complaint.order_item_id)
  return reply.screen('complaint.eta', { complaint, order, line, ...extra })
}
