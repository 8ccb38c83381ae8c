import { sql } from 'kysely'
import type { Database, Trx } from '../../db/database.js'
import type { ComplaintReason, ComplaintStatus, DispatchStatus, LineStatus, OrderProcess, ProviderKind } from '../../db/schema.js'
import { complaintColumns, type ComplaintRow } from './complaints.queries.js'

// The operator's reads of complaints (docs/design.md §14): the queue and the list, one complaint with
// its line and the line's latest upstream request, and what an action needs to know of its line.

/** A complaint as operators list it: its row, whose it is, its line, and since when it waits for an operator. */
export type OperatorComplaintRow = ComplaintRow & {
  account_name: string
  product_name: string
  variant_name: string
  order_process: OrderProcess
  line_status: LineStatus
  /** The first reseller message after the last operator step: what the SLA counts from (null: nobody waits). */
  waiting_since: Date | null
}

/** The latest upstream request of a line (h2h, smm), as a re-check asks about it. */
export type UpstreamRequestRow = {
  id: number
  provider: string
  kind: ProviderKind
  upstream_ref: string
  upstream_order_id: string | null
  provider_code: string
  target: string
  options: { comments?: string; opt?: string; qty?: number; postpaid?: boolean }
  status: DispatchStatus
  upstream_status: string | null
  sn: string | null
  message: string | null
  first_sent_at: Date | null
  max_cost: number | null
}

/** What an operator's action on a complaint reads of it and its line. */
export type ComplaintTarget = {
  id: number
  status: ComplaintStatus
  order_id: number
  line_id: number
  item_id: number
  order_process: OrderProcess
  line_status: LineStatus
  quantity: number
}

export type ComplaintFilter = { queue: boolean; status?: ComplaintStatus; reason?: ComplaintReason; accountId?: number }

const waitingSince = sql<Date | null>`(SELECT min(m.created_at) FROM complaint_messages m
   WHERE m.complaint_id = c.id AND m.author = 'reseller'
     AND m.id > coalesce((SELECT max(s.id) FROM complaint_messages s WHERE s.complaint_id = c.id AND s.author <> 'reseller'), 0))`

/**
 * Complaints past the SLA, as the queue marks them `overdue` (operator.view.ts): open, with a reseller
 * waiting longer than `hours`; how many, and since when the longest wait runs (operator alerts, docs/design.md §11e).
 */
export async function overdueComplaints(db: Database, hours: number): Promise<{ count: number; oldest: Date | null }> {
  const row = await db
    .selectFrom('complaints as c')
    .where('c.status', '=', 'open')
    .where(sql<boolean>`${waitingSince} < now() - make_interval(secs => ${hours * 3600}::float8)`)
    .select([sql<number>`count(*)::int`.as('count'), sql<Date | null>`min(${waitingSince})`.as('oldest')])
    .executeTakeFirstOrThrow()
  return { count: Number(row.count), oldest: row.oldest === null ? null : new Date(row.oldest) }
}

function operatorComplaints(db: Database | Trx) {
  return db
    .selectFrom('complaints as c')
    .innerJoin('orders as o', 'o.id', 'c.order_id')
    .innerJoin('accounts as a', 'a.id', 'c.account_id')
    .innerJoin('order_lines as l', 'l.id', 'c.order_line_id')
    .select([
      ...complaintColumns,
      'a.name as account_name',
      'l.product_name',
      'l.variant_name',
      'l.order_process',
      'l.status as line_status',
      waitingSince.as('waiting_since'),
    ])
}

/** A page of complaints: the queue (not closed, oldest first) or all of them (newest first), filtered; and how many match. */
export async function listOperatorComplaints(
  db: Database,
  f: ComplaintFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: OperatorComplaintRow[]; total: number }> {
  let rows = operatorComplaints(db)
  let count = db.selectFrom('complaints as c').select((eb) => eb.fn.countAll<string>().as('n'))
  if (f.queue) {
    rows = rows.where('c.status', '<>', 'closed')
    count = count.where('c.status', '<>', 'closed')
  }
  if (f.status) {
    rows = rows.where('c.status', '=', f.status)
    count = count.where('c.status', '=', f.status)
  }
  if (f.reason) {
    rows = rows.where('c.reason', '=', f.reason)
    count = count.where('c.reason', '=', f.reason)
  }
  if (f.accountId !== undefined) {
    rows = rows.where('c.account_id', '=', f.accountId)
    count = count.where('c.account_id', '=', f.accountId)
  }
  rows = f.queue ? rows.orderBy('c.created_at').orderBy('c.id') : rows.orderBy('c.id', 'desc')
  const [found, counted] = await Promise.all([rows.limit(page.limit).offset(page.offset).execute(), count.executeTakeFirstOrThrow()])
  return { rows: found as OperatorComplaintRow[], total: Number(counted.n) }
}

/** One complaint as operators read it, with its line's subtotal and refund. */
export async function findOperatorComplaint(db: Database, id: number) {
  return operatorComplaints(db)
    .select(['l.quantity', 'l.subtotal', 'l.refunded_amount as line_refunded_amount', 'l.delivered_at', 'o.status as order_status'])
    .where('c.id', '=', id)
    .executeTakeFirst() as Promise<
    | (OperatorComplaintRow & {
        quantity: number
        subtotal: number
        line_refunded_amount: number
        delivered_at: Date | null
        order_status: string
      })
    | undefined
  >
}

/** The latest upstream request of a line (its highest seq); undefined for a line that has none. */
export async function latestUpstreamRequest(db: Database | Trx, lineId: number): Promise<UpstreamRequestRow | undefined> {
  return db
    .selectFrom('dispatches')
    .select([
      'id',
      'provider',
      'kind',
      'upstream_ref',
      'upstream_order_id',
      'provider_code',
      'target',
      'options',
      'status',
      'upstream_status',
      'sn',
      'message',
      'first_sent_at',
      'max_cost',
    ])
    .where('order_line_id', '=', lineId)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/** A complaint with its line, unlocked (a re-check reads it before its call; an action before its locks). */
export async function findComplaintTarget(db: Database | Trx, id: number): Promise<ComplaintTarget | undefined> {
  return db
    .selectFrom('complaints as c')
    .innerJoin('order_lines as l', 'l.id', 'c.order_line_id')
    .select(['c.id', 'c.status', 'c.order_id', 'l.id as line_id', 'l.item_id', 'l.order_process', 'l.status as line_status', 'l.quantity'])
    .where('c.id', '=', id)
    .executeTakeFirst()
}
