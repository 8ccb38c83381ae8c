import type { Database } from '../../db/database.js'
import type { PageWindow } from '../../db/keyset-paging.js'
import { AppError } from '../../errors.js'
import { csvLine } from '../../http/csv.js'
import { CSV_MAX_ROWS } from './audit.schemas.js'
import { AUDIT_COLUMNS, auditRowsBefore, countAuditRowsUpTo, listAuditRows, type AuditFilter, type Bound } from './audit.queries.js'

export type { AuditFilter } from './audit.queries.js'

/** The filters as every surface takes them: text, a blank already dropped. */
export type AuditFilterText = {
  actor_id?: number
  actor?: string
  action?: string
  target_type?: string
  target_id?: string
  from?: string
  to?: string
}

type FieldErrors = Record<string, string[]>

// Checks both surfaces share; each names its field, all at once, like the schema's own refusals.
function refuseIfWrong(q: AuditFilterText, errors: FieldErrors, outOfOrder: boolean): void {
  if (q.target_id !== undefined && q.target_type === undefined)
    (errors.target_id ??= []).push('needs target_type: ids are per table (items 7 and accounts 7 are different rows)')
  if (outOfOrder) (errors.to ??= []).push('must be after from')
  if (Object.keys(errors).length > 0) throw new AppError('VALIDATION_ERROR', { fieldErrors: errors })
}

const base = (q: AuditFilterText): AuditFilter => ({
  actorId: q.actor_id,
  actor: q.actor,
  action: q.action,
  targetType: q.target_type,
  targetId: q.target_id,
})

/**
 * The API's filters: `from` and `to` are ISO 8601 instants. A leap second (23:59:60) passes the
 * date-time format but names no instant JavaScript or PostgreSQL holds, so it is refused by name.
 */
export function auditFilter(q: AuditFilterText): AuditFilter {
  const errors: FieldErrors = {}
  const instant = (field: 'from' | 'to'): Date | undefined => {
    if (q[field] === undefined) return undefined
    const at = new Date(q[field])
    if (!Number.isNaN(at.getTime())) return at
    errors[field] = ['must be an ISO 8601 time such as 2026-12-06T09:00:00Z (no leap second)']
    return undefined
  }
  const from = instant('from')
  const to = instant('to')
  refuseIfWrong(q, errors, from !== undefined && to !== undefined && to <= from)
  return { ...base(q), from, to }
}

/** The console's filters: `from` and `to` are whole days (YYYY-MM-DD, both counted) on the operator's clock. */
export function auditDayFilter(q: AuditFilterText, timeZone: string): AuditFilter {
  const errors: FieldErrors = {}
  const day = (field: 'from' | 'to'): Bound | undefined => {
    const text = q[field]
    if (text === undefined) return undefined
    // Read back as written: 2026-02-30 would otherwise roll over to March.
    const read = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00Z`) : undefined
    if (read && !Number.isNaN(read.getTime()) && read.toISOString().startsWith(text)) return { day: text, timeZone }
    errors[field] = ['must be a date such as 2026-12-01']
    return undefined
  }
  const from = day('from')
  const to = day('to')
  refuseIfWrong(q, errors, from !== undefined && to !== undefined && q.to! < q.from!)
  return { ...base(q), from, to }
}

/** A page of the log, newest first. */
export async function listAuditLog(db: Database, filter: AuditFilter, w: PageWindow) {
  return listAuditRows(db, filter, w)
}

export const CSV_COLUMNS = AUDIT_COLUMNS
// Rows read per statement: a 50,000-row CSV is 50 short statements, never one result held whole in memory.
const CSV_CHUNK = 1_000

/**
 * The filtered log as CSV lines (RFC 4180, `changes` as JSON text), newest first and at most
 * CSV_MAX_ROWS rows, read a chunk at a time by keyset as the answer is sent. `truncated` is
 * known before the first byte (a count that stops past the bound), so it can go in a header.
 */
export async function auditCsv(db: Database, filter: AuditFilter): Promise<{ truncated: boolean; lines: AsyncGenerator<string> }> {
  const truncated = (await countAuditRowsUpTo(db, filter, CSV_MAX_ROWS)) > CSV_MAX_ROWS
  async function* lines(): AsyncGenerator<string> {
    yield `${csvLine(CSV_COLUMNS)}\r\n`
    let before: number | undefined
    for (let sent = 0; sent < CSV_MAX_ROWS;) {
      const limit = Math.min(CSV_CHUNK, CSV_MAX_ROWS - sent)
      const rows = await auditRowsBefore(db, filter, before, limit)
      if (rows.length === 0) return
      yield rows
        .map((r) =>
          csvLine([
            r.id,
            new Date(r.at).toISOString(),
            r.actor_id,
            r.actor,
            r.role,
            r.client_ip,
            r.request_id,
            r.action,
            r.target_type,
            r.target_id,
            r.change,
            JSON.stringify(r.changes),
          ]),
        )
        .map((line) => `${line}\r\n`)
        .join('')
      if (rows.length < limit) return
      sent += rows.length
      before = rows[rows.length - 1]!.id
    }
  }
  return { truncated, lines: lines() }
}
