import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely'
import type { Database } from '../../db/database.js'
import { listPage, type PageWindow } from '../../db/keyset-paging.js'
import type { DB, OperatorRole } from '../../db/schema.js'

/** A period's edge: an instant (the API's), or a whole day on a clock (the console's days, in LEADERBOARD_TZ). */
export type Bound = Date | { day: string; timeZone: string }

/** Exact filters of the audit log; `from` is inclusive, `to` exclusive (a day `to` includes that day). */
export type AuditFilter = {
  actorId?: number
  actor?: string
  action?: string
  targetType?: string
  targetId?: string
  from?: Bound
  to?: Bound
}

/** Every column of a row, in the order the API and the CSV show them. */
export const AUDIT_COLUMNS = [
  'id',
  'at',
  'actor_id',
  'actor',
  'role',
  'client_ip',
  'request_id',
  'action',
  'target_type',
  'target_id',
  'change',
  'changes',
] as const

// A day's start on its clock; a `to` day counts whole, so the period ends where the next day starts.
const dayStart = (b: { day: string; timeZone: string }, next = 0) =>
  sql<Date>`((${b.day}::date + ${next}::int)::timestamp AT TIME ZONE ${b.timeZone})`

// Every actor acts with one of the roles (db/acting.ts), though the column is plain text.
const rowsOf = (query: SelectQueryBuilder<DB, 'audit_log', object>) => query.select(AUDIT_COLUMNS).$narrowType<{ role: OperatorRole }>()

function filtered(db: Database, f: AuditFilter): SelectQueryBuilder<DB, 'audit_log', object> {
  return db.selectFrom('audit_log').where((eb: ExpressionBuilder<DB, 'audit_log'>) => {
    const and = []
    if (f.actorId !== undefined) and.push(eb('actor_id', '=', f.actorId))
    if (f.actor !== undefined) and.push(eb('actor', '=', f.actor))
    if (f.action !== undefined) and.push(eb('action', '=', f.action))
    if (f.targetType !== undefined) and.push(eb('target_type', '=', f.targetType))
    if (f.targetId !== undefined) and.push(eb('target_id', '=', f.targetId))
    if (f.from !== undefined) and.push(eb('at', '>=', f.from instanceof Date ? f.from : dayStart(f.from)))
    if (f.to !== undefined) and.push(eb('at', '<', f.to instanceof Date ? f.to : dayStart(f.to, 1)))
    return eb.and(and)
  })
}

/** One page of the log, newest first, with the growing lists' capped count and keyset cursor. */
export async function listAuditRows(db: Database, f: AuditFilter, w: PageWindow) {
  const query = filtered(db, f)
  return listPage(db, query, rowsOf(query), w)
}

/** Up to `limit` rows older than the id `before` (all when undefined), newest first: the CSV's chunks. */
export async function auditRowsBefore(db: Database, f: AuditFilter, before: number | undefined, limit: number) {
  let query = filtered(db, f)
  if (before !== undefined) query = query.where('id', '<', before)
  return rowsOf(query).orderBy('id', 'desc').limit(limit).execute()
}

/** How many rows match, counted no further than `cap` + 1: enough to say a CSV was cut short. */
export async function countAuditRowsUpTo(db: Database, f: AuditFilter, cap: number): Promise<number> {
  const capped = filtered(db, f)
    .select(sql<number>`1`.as('one'))
    .orderBy('id', 'desc')
    .limit(cap + 1)
  const { n } = await db
    .selectFrom(capped.as('capped'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(n)
}
