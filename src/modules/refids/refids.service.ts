import type { Database } from '../../db/database.js'
import { invalidField, refIdAlreadyExists, type AppError } from '../../errors.js'
import { findOrderSummary, findTopupSummary } from './refids.queries.js'

/** A ref_id of nothing but white space names nothing: a 422 on `ref_id`, like any other bad field. */
export function refuseBlankRefId(refId: string): void {
  if (refId.trim() === '') throw invalidField('ref_id', 'must not be blank')
}

/** A ref_id the account already used, for a purchase or a top-up: 422 with that transaction (docs/design.md §5). */
export async function refIdTaken(db: Database, accountId: number, refId: string): Promise<AppError> {
  const data = (await findOrderSummary(db, accountId, refId)) ?? (await findTopupSummary(db, accountId, refId))
  return refIdAlreadyExists(data)
}
