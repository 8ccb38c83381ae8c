import type { Database } from '../../db/database.js'
import { resolveDispatch as resolveWith, type Resolution } from '../fulfilment/index.js'
import { recordFinal } from './settlement.js'

/** An operator's resolution of a request in review (fulfilment's), its final answer settled here (recordFinal). */
export function resolveDispatch(db: Database, id: number, r: Resolution) {
  return resolveWith(db, id, r, recordFinal)
}
