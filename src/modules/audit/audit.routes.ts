import { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { pageWindow } from '../../http/paging.js'
import { AUDIT_DOCS } from './audit.openapi.js'
import { AuditQuery, AuditResponse } from './audit.schemas.js'
import { auditCsv, auditFilter, listAuditLog, type AuditFilter } from './audit.service.js'

/** Whether a request asks for CSV: `format=csv`, or `Accept: text/csv` unless `format=json` says otherwise. */
export function wantsCsv(request: FastifyRequest, format: string | undefined): boolean {
  if (format !== undefined) return format === 'csv'
  return /(^|,)\s*text\/csv\b/i.test(request.headers.accept ?? '')
}

/** Sends the filtered log as a CSV attachment, streamed a chunk at a time (the API's and the console's download). */
export async function sendAuditCsv(db: AppContext['db'], reply: FastifyReply, filter: AuditFilter): Promise<FastifyReply> {
  const { truncated, lines } = await auditCsv(db, filter)
  if (truncated) reply.header('x-truncated', 'true')
  return reply
    .type('text/csv; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-disposition', 'attachment; filename="audit-log.csv"')
    .send(Readable.from(lines))
}

/** The audit log of operator writes (docs/design.md §11d): the list, or the same filters as CSV. */
export function auditRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get(
      '/audit',
      {
        schema: {
          tags: ['operator'],
          summary: 'The audit log of operator writes, newest first (filters; CSV with format=csv)',
          querystring: AuditQuery,
          ...operation('operator', AUDIT_DOCS.adminListAuditLog, { 200: AuditResponse }),
        },
      },
      async (request, reply) => {
        const { page = 1, per_page = 50, cursor, format, ...filters } = request.query
        const filter = auditFilter(filters)
        // A stream, not the JSON page: Fastify sends it as it is, past the response schema.
        if (wantsCsv(request, format)) return sendAuditCsv(db, reply, filter)
        const { data, meta } = await listAuditLog(db, filter, pageWindow({ page, per_page, cursor }))
        return ok(data, meta)
      },
    )
  }
}
