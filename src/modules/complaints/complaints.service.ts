import { inTransaction, type Database } from '../../db/database.js'
import type { PageWindow } from '../../db/keyset-paging.js'
import type { ComplaintReason, ComplaintStatus } from '../../db/schema.js'
import { AppError } from '../../errors.js'
import {
  complaintsOfOrder,
  findComplaint,
  findLineForComplaint,
  findOrderId,
  insertComplaint,
  listAccountComplaints,
  lockComplaint,
  messagesOf,
  recordStep,
} from './complaints.queries.js'
import { complaintView, type ComplaintView } from './complaints.view.js'

/** What decides whether a line still takes a complaint (docs/design.md §14). */
export type ComplaintWindow = { now: Date; days: number }

/** Who on the reseller's side wrote: the API (its account) or a dashboard user (their email). */
export type ResellerAuthor = { name: string }

const DAY_MS = 24 * 60 * 60 * 1000
// Lines a complaint may name: bought and not given back.
const OPEN_TO_COMPLAINTS = new Set(['pending', 'processing', 'delivered', 'sent'])

/**
 * POST /v1/trx/{ref}/complaints: a complaint on one line of the caller's order, within
 * COMPLAINT_DAYS of the order, one open per line. Another account's order is TRX_NOT_FOUND.
 */
export async function openComplaint(
  db: Database,
  window: ComplaintWindow,
  accountId: number,
  ref: string,
  body: { order_item_id: number; reason: ComplaintReason; message: string },
  author: ResellerAuthor,
): Promise<ComplaintView> {
  const id = await inTransaction(db, async (trx) => {
    const found = await findLineForComplaint(trx, accountId, ref, body.order_item_id)
    if (!found) throw new AppError('TRX_NOT_FOUND')
    if (found.line_id === null) {
      throw new AppError('VALIDATION_ERROR', {
        fieldErrors: { order_item_id: ['is not a line of this transaction: use an order_item_id its items show'] },
      })
    }
    if (!OPEN_TO_COMPLAINTS.has(found.line_status!)) {
      throw new AppError('COMPLAINT_NOT_ALLOWED', {
        fieldErrors: { order_item_id: [`the line is ${found.line_status}: it takes no complaint`] },
      })
    }
    if (window.days === 0 || window.now.getTime() - new Date(found.order_created_at).getTime() > window.days * DAY_MS) {
      throw new AppError('COMPLAINT_NOT_ALLOWED', {
        fieldErrors: { order_item_id: [`complaints are taken within ${window.days} days of the order`] },
      })
    }
    const created = await insertComplaint(trx, {
      account_id: accountId,
      order_id: found.order_id,
      order_line_id: found.line_id,
      reason: body.reason,
    })
    if (created === undefined) {
      throw new AppError('COMPLAINT_ALREADY_OPEN', {
        fieldErrors: { order_item_id: ['this line has an open complaint: add a message to it (POST /v1/complaints/{id}/messages)'] },
      })
    }
    await recordStep(trx, created, { author: 'reseller', authorName: author.name, action: 'open', body: body.message, status: 'open' })
    return created
  })
  return getComplaint(db, accountId, id)
}

/** POST /v1/complaints/{id}/messages: the reseller's message; an answered complaint is open again. */
export async function addResellerMessage(
  db: Database,
  accountId: number,
  id: number,
  message: string,
  author: ResellerAuthor,
): Promise<ComplaintView> {
  await inTransaction(db, async (trx) => {
    const c = await lockComplaint(trx, id, accountId)
    if (!c) throw new AppError('COMPLAINT_NOT_FOUND')
    if (c.status === 'closed') {
      throw new AppError('COMPLAINT_NOT_ALLOWED', { fieldErrors: { id: ['the complaint is closed: open a new one on the line'] } })
    }
    await recordStep(trx, id, { author: 'reseller', authorName: author.name, action: 'message', body: message, status: 'open' })
  })
  return getComplaint(db, accountId, id)
}

/** GET /v1/complaints/{id}: the caller's complaint with its thread. */
export async function getComplaint(db: Database, accountId: number, id: number): Promise<ComplaintView> {
  const c = await findComplaint(db, id, accountId)
  if (!c) throw new AppError('COMPLAINT_NOT_FOUND')
  return complaintView(c, await messagesOf(db, [id]))
}

/** GET /v1/trx/{ref}/complaints: every complaint on the caller's order, oldest first, with threads. */
export async function listOrderComplaints(db: Database, accountId: number, ref: string): Promise<ComplaintView[]> {
  const orderId = await findOrderId(db, accountId, ref)
  if (orderId === undefined) throw new AppError('TRX_NOT_FOUND')
  const rows = await complaintsOfOrder(db, orderId)
  const messages = await messagesOf(
    db,
    rows.map((r) => r.id),
  )
  return rows.map((r) => complaintView(r, messages))
}

/** GET /v1/complaints: the caller's complaints, newest first. */
export async function listComplaints(db: Database, accountId: number, status: ComplaintStatus | undefined, w: PageWindow) {
  const { data, meta } = await listAccountComplaints(db, accountId, status, w)
  return { data: data.map((c) => complaintView(c)), meta }
}

/**
 * Whether a line takes a new complaint now, by openComplaint's own rules (its status, the window), for
 * pages that offer the form only then; a reseller's view says `completed` for `delivered`.
 */
export function takesComplaint(window: ComplaintWindow, orderCreatedAt: Date, lineStatus: string): boolean {
  const status = lineStatus === 'completed' ? 'delivered' : lineStatus
  if (!OPEN_TO_COMPLAINTS.has(status) || window.days === 0) return false
  return window.now.getTime() - new Date(orderCreatedAt).getTime() <= window.days * DAY_MS
}
