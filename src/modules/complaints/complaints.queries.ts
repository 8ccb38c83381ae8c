import { sql } from 'kysely'
import type { Database, Trx } from '../../db/database.js'
import { raisingAppErrors } from '../../db/functions/app-errors.js'
import type { PageWindow } from '../../db/keyset-paging.js'
import { listPage } from '../../db/keyset-paging.js'
import type { ComplaintAction, ComplaintAuthor, ComplaintReason, ComplaintResolution, ComplaintStatus } from '../../db/schema.js'

/** A complaint as its views read it: its row with its order's ref_id and invoice. */
export type ComplaintRow = {
  id: number
  account_id: number
  order_id: number
  order_line_id: number
  ref_id: string
  invoice: string
  reason: ComplaintReason
  status: ComplaintStatus
  resolution: ComplaintResolution | null
  refunded_amount: number
  created_at: Date
  updated_at: Date
  closed_at: Date | null
}

export type ComplaintMessageRow = {
  id: number
  complaint_id: number
  author: ComplaintAuthor
  author_name: string
  action: ComplaintAction
  body: string
  created_at: Date
}

/** A line a reseller names in a complaint: the order's by ref_id or invoice, of that account. */
export type LineForComplaint = { order_id: number; order_created_at: Date; line_id: number | null; line_status: string | null }

/** A complaint's columns with its order's ref_id and invoice (aliases c and o): every complaint read selects them. */
export const complaintColumns = [
  'c.id',
  'c.account_id',
  'c.order_id',
  'c.order_line_id',
  'o.ref_id',
  'o.invoice',
  'c.reason',
  'c.status',
  'c.resolution',
  'c.refunded_amount',
  'c.created_at',
  'c.updated_at',
  'c.closed_at',
] as const

const complaintsWithOrders = (db: Database | Trx) => db.selectFrom('complaints as c').innerJoin('orders as o', 'o.id', 'c.order_id')

/** The account's order by ref_id or invoice and, when it is one of its lines, the line; undefined without the order. */
export async function findLineForComplaint(
  db: Database | Trx,
  accountId: number,
  ref: string,
  lineId: number,
): Promise<LineForComplaint | undefined> {
  return db
    .selectFrom('orders as o')
    .leftJoin('order_lines as l', (j) => j.onRef('l.order_id', '=', 'o.id').on('l.id', '=', lineId))
    .select(['o.id as order_id', 'o.created_at as order_created_at', 'l.id as line_id', 'l.status as line_status'])
    .where('o.account_id', '=', accountId)
    .where((w) => w.or([w('o.ref_id', '=', ref), w('o.invoice', '=', ref)]))
    .executeTakeFirst()
}

/** The account's order id by ref_id or invoice. */
export async function findOrderId(db: Database, accountId: number, ref: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where('account_id', '=', accountId)
    .where((w) => w.or([w('ref_id', '=', ref), w('invoice', '=', ref)]))
    .executeTakeFirst()
  return row?.id
}

/** A new open complaint; undefined when the line has one open already (the partial unique index). */
export async function insertComplaint(
  trx: Trx,
  c: { account_id: number; order_id: number; order_line_id: number; reason: ComplaintReason },
): Promise<number | undefined> {
  const row = await sql<{ id: number }>`
    INSERT INTO complaints (account_id, order_id, order_line_id, reason) VALUES (${c.account_id}, ${c.order_id}, ${c.order_line_id}, ${c.reason})
    ON CONFLICT (order_line_id) WHERE status <> 'closed' DO NOTHING RETURNING id`.execute(trx)
  return row.rows[0]?.id
}

/** A complaint's row locked for a step; `accountId` keeps a reseller to its own. */
export async function lockComplaint(trx: Trx, id: number, accountId?: number): Promise<ComplaintRow | undefined> {
  let q = complaintsWithOrders(trx).select(complaintColumns).where('c.id', '=', id)
  if (accountId !== undefined) q = q.where('c.account_id', '=', accountId)
  return q.forNoKeyUpdate('c').executeTakeFirst()
}

/** One step: its message, the complaint's new status and resolution, its complaint.updated event (complaints.sql). */
export async function recordStep(
  trx: Trx,
  id: number,
  step: {
    author: ComplaintAuthor
    authorName: string
    action: ComplaintAction
    body: string
    status: ComplaintStatus
    resolution?: ComplaintResolution
  },
): Promise<void> {
  await sql`SELECT record_complaint_step(${id}::bigint, ${step.author}::text, ${step.authorName}::text, ${step.action}::text, ${step.body}::text,
                                         ${step.status}::text, ${step.resolution ?? null}::text)`.execute(trx)
}

/** A complaint's refund (complaints.sql: refund_complaint): the amount credited. */
export async function refundComplaint(trx: Trx, id: number, authorName: string, body: string | null): Promise<number> {
  // Its refusals (closed, the line not final or refunded) arrive as COMPLAINT_NOT_ALLOWED naming why.
  const { rows } = await raisingAppErrors(
    sql<{ amount: string }>`SELECT refund_complaint(${id}::bigint, ${authorName}::text, ${body}::text) AS amount`.execute(trx),
  )
  return Number(rows[0]!.amount)
}

export async function findComplaint(db: Database, id: number, accountId?: number): Promise<ComplaintRow | undefined> {
  let q = complaintsWithOrders(db).select(complaintColumns).where('c.id', '=', id)
  if (accountId !== undefined) q = q.where('c.account_id', '=', accountId)
  return q.executeTakeFirst()
}

export async function complaintsOfOrder(db: Database, orderId: number): Promise<ComplaintRow[]> {
  return complaintsWithOrders(db).select(complaintColumns).where('c.order_id', '=', orderId).orderBy('c.id').execute()
}

/** A page of an account's complaints, newest first. */
export async function listAccountComplaints(db: Database, accountId: number, status: ComplaintStatus | undefined, w: PageWindow) {
  let filtered = db.selectFrom('complaints').where('account_id', '=', accountId)
  if (status) filtered = filtered.where('status', '=', status)
  let joined = complaintsWithOrders(db).select(complaintColumns).where('c.account_id', '=', accountId)
  if (status) joined = joined.where('c.status', '=', status)
  // listPage pages on a bare `id`: the join's two ids made it ambiguous, the derived table has one.
  const rows = db.selectFrom(joined.as('c')).selectAll()
  return listPage<ComplaintRow>(db, filtered as never, rows as never, w)
}

/** The threads of some complaints, oldest message first. */
export async function messagesOf(db: Database | Trx, complaintIds: number[]): Promise<ComplaintMessageRow[]> {
  if (complaintIds.length === 0) return []
  return db
    .selectFrom('complaint_messages')
    .select(['id', 'complaint_id', 'author', 'author_name', 'action', 'body', 'created_at'])
    .where('complaint_id', 'in', complaintIds)
    .orderBy('id')
    .execute()
}
