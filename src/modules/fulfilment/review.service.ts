import type { Database } from '../../db/database.js'
import type { Dispatch, DispatchStatus } from '../../db/schema.js'
import { AppError, invalidField } from '../../errors.js'
import type { RecordFinal } from './answers.js'
import { dispatchesInStatus, findDispatch, placeSmmFromReview, resolvedDispatch } from './review.queries.js'

/** The operator's view of upstream requests, by status (default: those waiting for review). */
export async function listDispatches(db: Database, q: { status: DispatchStatus; page: number; per_page: number }) {
  const { rows, total } = await dispatchesInStatus(db, q)
  return {
    rows: rows.map((r) => ({
      ...r,
      first_sent_at: r.first_sent_at?.toISOString() ?? null,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    })),
    total,
  }
}

export type Resolution = { outcome: 'placed' | 'failed'; order_id?: string; sn?: string; reason?: string }

/**
 * Settles a request in review after the operator looked at the provider: `placed` gives an smm
 * request its panel order id (polled from then on) or an h2h request its serial number
 * (delivered); `failed` refunds it. Only a request in review can be resolved.
 */
export async function resolveDispatch(db: Database, id: number, r: Resolution, recordFinal: RecordFinal) {
  const d = await findDispatch(db, id)
  if (!d) throw new AppError('DISPATCH_NOT_FOUND')
  if (d.status !== 'review') throw new AppError('INVALID_STATE', { detail: `request is ${d.status}` })
  const done = await resolve(db, d, r, recordFinal)
  if (!done) throw new AppError('INVALID_STATE', { detail: 'request left review meanwhile' })
  return resolvedDispatch(db, id)
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
    return placeSmmFromReview(db, d.id, r.order_id.trim())
  }
  if (!r.sn?.trim()) throw invalidField('sn', 'the serial number is required to resolve an h2h request as placed')
  return recordFinal(db, d, { status: 'completed', refund: 'none', message: 'resolved as delivered by the operator', sn: r.sn.trim() }, [
    'review',
  ])
}
