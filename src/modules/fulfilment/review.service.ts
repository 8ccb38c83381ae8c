import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import type { Dispatch, DispatchStatus } from '../../db/schema.js'
import { AppError, invalidField } from '../../errors.js'
import type { RecordFinal } from './answers.js'

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

/** The operator's view of upstream requests, by status (default: those waiting for review). */
export async function listDispatches(db: Database, q: { status: DispatchStatus; page: number; per_page: number }) {
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
  return {
    rows: rows.map((r) => ({
      ...r,
      first_sent_at: r.first_sent_at?.toISOString() ?? null,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    })),
    total: count.n,
  }
}

export type Resolution = { outcome: 'placed' | 'failed'; order_id?: string; sn?: string; reason?: string }

/**
 * Settles a request in review after the operator looked at the provider: `placed` gives an smm
 * request its panel order id (polled from then on) or an h2h request its serial number
 * (delivered); `failed` refunds it. Only a request in review can be resolved.
 */
export async function resolveDispatch(db: Database, id: number, r: Resolution, recordFinal: RecordFinal) {
  const d = await db.selectFrom('dispatches').selectAll().where('id', '=', id).executeTakeFirst()
  if (!d) throw new AppError('DISPATCH_NOT_FOUND')
  if (d.status !== 'review') throw new AppError('INVALID_STATE', { detail: `request is ${d.status}` })
  const done = await resolve(db, d, r, recordFinal)
  if (!done) throw new AppError('INVALID_STATE', { detail: 'request left review meanwhile' })
  const row = await db
    .selectFrom('dispatches')
    .select(['id', 'status', 'upstream_order_id', 'sn'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  return row
}

async function resolve(db: Database, d: Dispatch, r: Resolution, recordFinal: RecordFinal): Promise<boolean> {
  if (r.outcome === 'failed') {
    return recordFinal(
      db,
      d,
      { status: 'failed', refund: 'full', message: `resolved as failed by the operator${r.reason ? `: ${r.reason}` : ''}` },
      ['review'],
    )
  }
  if (d.kind === 'smm_panel') {
    if (!r.order_id?.trim()) throw invalidField('order_id', "the panel's order id is required to resolve an smm request as placed")
    const moved = await db
      .updateTable('dispatches')
      .set({
        status: 'pending',
        upstream_order_id: r.order_id.trim(),
        upstream_status: 'Pending',
        message: 'resolved as placed by the operator',
        next_attempt_at: sql`now()`,
        updated_at: sql`now()`,
      })
      .where('id', '=', d.id)
      .where('status', '=', 'review')
      .executeTakeFirst()
    return moved.numUpdatedRows > 0n
  }
  if (!r.sn?.trim()) throw invalidField('sn', 'the serial number is required to resolve an h2h request as placed')
  return recordFinal(db, d, { status: 'completed', refund: 'none', message: 'resolved as delivered by the operator', sn: r.sn.trim() }, [
    'review',
  ])
}
