import { Type, type Static } from '@sinclair/typebox'
import { CursorQuery, OkCursorPage } from '../../http/paging.js'
import { Nullable, PageNumber, RowId, StringEnum, Timestamp } from '../../http/schemas.js'
import { ROLES } from '../team/index.js'

/** How much one CSV holds: the newest rows of the filtered list up to this many (docs/operating.md, Audit log). */
export const CSV_MAX_ROWS = 50_000

// The filters the API, the console and the CLI share; each is exact, so each can use an index or a cheap test.
export const AuditFilters = {
  actor_id: Type.Optional(RowId({ description: "the operator's id (operators made with the team API)" })),
  actor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 320, description: "exact: an operator's email, or `admin token` for the ADMIN_TOKEN" }),
  ),
  action: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'exact: the operation id of the write (`adminUpdateItem`)' }),
  ),
  target_type: Type.Optional(
    Type.String({ minLength: 1, maxLength: 63, description: 'exact: the table the row is in (`items`, `accounts`, `order_lines`, …)' }),
  ),
  target_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: "exact: the row's key (a composite key's columns joined by `:`); needs `target_type`, ids being per table",
    }),
  ),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'rows at or after this time (inclusive)' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'rows before this time (exclusive)' })),
}

export const AuditQuery = Type.Object({
  ...AuditFilters,
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  ...CursorQuery,
  format: Type.Optional(
    StringEnum(['json', 'csv'], {
      description: `csv: the whole filtered list as CSV, newest first, up to ${CSV_MAX_ROWS} rows (page and cursor ignored); so does \`Accept: text/csv\``,
    }),
  ),
})
export type AuditQuery = Static<typeof AuditQuery>

export const AuditRow = Type.Object({
  id: Type.Integer(),
  at: Timestamp,
  actor_id: Nullable(Type.Integer({ description: 'the operator; null for the admin token' })),
  actor: Type.String({ description: "the operator's email, or `admin token`" }),
  role: StringEnum(ROLES, { description: 'the role the write was made with' }),
  client_ip: Nullable(Type.String()),
  request_id: Nullable(Type.String({ description: "the request's X-Request-Id: every row one request wrote shares it" })),
  action: Type.String({ description: 'the operation id of the write' }),
  target_type: Type.String({ description: 'the table of the row changed' }),
  target_id: Type.String({ description: "the row's key; a composite key's columns joined by `:`" }),
  change: StringEnum(['insert', 'update', 'delete']),
  changes: Type.Record(Type.String(), Type.Object({ before: Type.Unknown(), after: Type.Unknown() }), {
    description: 'each column that changed, `{ before, after }` (null before an insert, after a delete); secrets as `"[redacted]"`',
  }),
})
export type AuditRow = Static<typeof AuditRow>

export const AuditPage = OkCursorPage(AuditRow)

/** The list as JSON, or the same filters' rows as CSV (one response, two media types, in the document too). */
export const AuditResponse = Type.Unsafe<Static<typeof AuditPage>>({
  content: {
    'application/json': { schema: AuditPage },
    'text/csv': {
      schema: Type.String({
        description: `a header row, then one row per audit row with the JSON columns' names; \`changes\` as JSON text. \`X-Truncated: true\` when more than ${CSV_MAX_ROWS} rows matched (the newest ${CSV_MAX_ROWS} are sent)`,
      }),
    },
  },
})
