import { operations } from '../../http/operation.js'

const row = {
  id: 9051,
  at: '2026-12-06T09:12:44.318Z',
  actor_id: 3,
  actor: 'rina@tokomaju.example',
  role: 'admin',
  client_ip: '203.0.113.7',
  request_id: 'req-7f3a',
  action: 'adminUpdateItem',
  target_type: 'items',
  target_id: '7',
  change: 'update',
  changes: { price: { before: 25000, after: 26000 }, price_locked: { before: false, after: true } },
}

/** OpenAPI metadata of the audit log's route (carried by its route's schema). */
export const AUDIT_DOCS = operations({
  adminListAuditLog: {
    description:
      'The audit log (docs/design.md §11d): one row per row an operator write changed, appended in that write’s own transaction, newest first. ' +
      'Filter by actor (`actor_id`, or `actor`: an email, `admin token`), `action` (the operation id), `target_type` and `target_id`, and a period ' +
      '(`from` inclusive, `to` exclusive, ISO 8601). Pages like the other growing lists: `page` within the first 10,000 rows, then ' +
      '`meta.next_cursor`. `format=csv` (or `Accept: text/csv`) answers the filtered rows as CSV instead, newest first, up to 50,000. ' +
      'Secrets (hashes, encrypted columns, licenses) appear only as `"[redacted]"`.',
    codes: ['VALIDATION_ERROR'],
    response: {
      message: 'OK',
      data: [row],
      meta: { page: 1, per_page: 50, total: 1, last_page: 1, total_capped: false, next_cursor: null },
    },
    errorExamples: { VALIDATION_ERROR: { message: 'VALIDATION_ERROR', errors: { to: ['must be after from'] } } },
  },
})
