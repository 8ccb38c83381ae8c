import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { CursorQuery, pageWindow } from '../../http/paging.js'
import { PageNumber } from '../../http/schemas.js'
import { auditDayFilter, CSV_MAX_ROWS, listAuditLog, sendAuditCsv, type AuditFilterText } from '../audit/index.js'
import { Optional, blankToUndefined, wholeNumber } from './form.js'

const hide = true
// The page's access rule is the API route's (modules/team/roles.ts): admins and owners read the log.
const config = { operationId: 'adminListAuditLog' }
// A GET form's fields are text, '' when left blank; days are YYYY-MM-DD on the console's clock.
const Filters = {
  actor_id: Optional(Type.String({ maxLength: 16 })),
  actor: Optional(Type.String({ maxLength: 320 })),
  action: Optional(Type.String({ maxLength: 100 })),
  target_type: Optional(Type.String({ maxLength: 63 })),
  target_id: Optional(Type.String({ maxLength: 200 })),
  from: Optional(Type.String({ maxLength: 10 })),
  to: Optional(Type.String({ maxLength: 10 })),
}
const FIELDS = Object.keys(Filters) as (keyof typeof Filters)[]
const PageQuery = Type.Object({ ...Filters, page: Optional(PageNumber), ...CursorQuery })
const CsvQuery = Type.Object(Filters)
type FilterForm = Partial<Record<keyof typeof Filters, string>>

/** The form's text as the audit module's filters: blanks dropped, the id read as a number (the days are the service's to check). */
function filterText(q: FilterForm): AuditFilterText {
  const text = Object.fromEntries(FIELDS.map((f) => [f, blankToUndefined(q[f])])) as Record<keyof typeof Filters, string | undefined>
  return { ...text, actor_id: wholeNumber('actor_id', text.actor_id) }
}

// A time is shown on the console's clock by the view; nothing (null) as a dash; an empty text or list by a mark the view words.
type Shown = { text: string } | { time: string } | { mark: 'empty' | 'none' } | null
/** A value of `changes` as a person reads it: a time marked as one, lists and objects as text, not JSON. */
function shown(value: unknown): Shown {
  if (value === null || value === undefined) return null
  if (value === '') return { mark: 'empty' }
  if (typeof value === 'string') return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) ? { time: value } : { text: value }
  if (Array.isArray(value))
    return value.length === 0 ? { mark: 'none' } : { text: value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ') }
  if (typeof value === 'object' && Object.keys(value).length === 0) return { mark: 'none' }
  if (typeof value === 'object')
    return {
      text: Object.entries(value)
        .map(([k, v]) => `${k} ${typeof v === 'string' ? v : JSON.stringify(v)}`)
        .join(', '),
    }
  return { text: String(value) }
}

// Where a target has a page of its own in the console.
const TARGET_PAGES: Record<string, string> = {
  accounts: '/console/resellers/',
  items: '/console/items/',
  orders: '/console/orders/',
  categories: '/console/categories/',
  products: '/console/products/',
  payment_channels: '/console/channels/',
}

/** The audit log (docs/design.md §11d): its filters as a GET form, newest first, paged, and the same filters as CSV. */
export function auditLogPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  const timeZone = ctx.config.leaderboardTz
  return async (app) => {
    app.get('/console/audit', { config, schema: { hide, querystring: PageQuery } }, async (request, reply) => {
      const { page = 1, cursor } = request.query
      const text = filterText(request.query)
      const { data, meta } = await listAuditLog(request.readDb, auditDayFilter(text, timeZone), pageWindow({ page, per_page: 50, cursor }))
      // Links keep the filters as typed (blanks left out): the next page, and the CSV of the same rows.
      const given = FIELDS.flatMap((f) => (text[f] === undefined ? [] : [[f, String(text[f])]]))
      const next = meta.next_cursor ? `/console/audit?${new URLSearchParams([...given, ['cursor', meta.next_cursor]])}` : undefined
      const rows = data.map((row) => ({
        ...row,
        href:
          TARGET_PAGES[row.target_type] && !row.target_id.includes(':') ? `${TARGET_PAGES[row.target_type]}${row.target_id}` : undefined,
        lines: Object.entries(row.changes).map(([field, c]) => ({ field, before: shown(c.before), after: shown(c.after) })),
      }))
      return reply.page('audit-log.eta', {
        rows,
        meta,
        next,
        query: Object.fromEntries(FIELDS.map((f) => [f, request.query[f] ?? ''])),
        filtered: given.length > 0,
        csv: `/console/audit.csv${given.length ? `?${new URLSearchParams(given)}` : ''}`,
        csvMax: CSV_MAX_ROWS,
        timeZone,
      })
    })
    app.get('/console/audit.csv', { config, schema: { hide, querystring: CsvQuery } }, async (request, reply) =>
      sendAuditCsv(db, reply, auditDayFilter(filterText(request.query), timeZone)),
    )
  }
}
