import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import type { Dispatch, DispatchStatus } from '../../db/schema.js'

const VIEW = [
  'd.id',
  'd.order_id',
  'o.invoice',
  'o.account_id',
  'd.order_line_id',
  'd.provider',
  'd.kind',
  'd.upstream_ref',
  'd.upstream_order_id',
  'd.provider_code',
  'd.target',
  'd.quantity',
  'd.amount',
  'd.status',
  'd.upstream_status',
  'd.sn',
  'd.message',
  'd.attempts',
  'd.first_sent_at',
  'd.created_at',
  'd.updated_at',
] as const

/** A page of the upstream requests in one status, by id, with their orders' invoice and account, and how many there are. */
export async function dispatchesInStatus(db: Database, q: { status: DispatchStatus; page: number; per_page: number }) {
  const base = db.selectFrom('dispatches as d').innerJoin('orders as o', 'o.id', 'd.order_id').where('d.status', '=', q.status)
  const [rows, count] = await Promise.all([
    base
      .select(VIEW)
      .orderBy('d.id')
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: count.n }
}

export function findDispatch(db: Database, id: number): Promise<Dispatch | undefined> {
  return db.selectFrom('dispatches').selectAll().where('id', '=', id).executeTakeFirst()
}

/** What a resolution left on the request: its status, and the panel's order id or the serial number. */
export function resolvedDispatch(db: Database, id: number) {
  return db.selectFrom('dispatches').select(['id', 'status', 'upstream_order_id', 'sn']).where('id', '=', id).executeTakeFirstOrThrow()
}

/** An smm request in review that the panel did take: pending under the panel's order id, polled from now; false once it left review. */
export async function placeSmmFromReview(db: Database, id: number, upstreamOrderId: string): Promise<boolean> {
  const moved = await db
    .updateTable('dispatches')
    .set({
      status: 'pending',
      upstream_order_id: upstreamOrderId,
      upstream_status: 'Pending',
      message: 'resolved as placed by the operator',
      next_attempt_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .where('status', '=', 'review')
    .executeTakeFirst()
  return moved.numUpdatedRows > 0n
}
