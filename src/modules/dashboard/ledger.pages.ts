import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { pageWindow } from '../../http/paging.js'
import { PageNumber, StringEnum } from '../../http/schemas.js'
import { listMutations } from '../ledger/index.js'
import { csvLine } from '../../http/csv.js'
import { ledgerDescription } from './ledger-words.js'
import { TEXTS } from './texts.js'

const hide = true
// A blank select sends an empty value: "any".
const Filters = {
  direction: Type.Optional(StringEnum(['', 'credit', 'debit'])),
  type: Type.Optional(StringEnum(['', 'topup', 'purchase', 'refund', 'adjustment'])),
}
const LedgerQuery = Type.Object({ ...Filters, page: Type.Optional(PageNumber), cursor: Type.Optional(Type.String({ maxLength: 40 })) })
const CsvQuery = Type.Object(Filters)
// One CSV walks the ledger a page at a time (the API's own keyset pages), up to this many rows.
const CSV_PAGE = 100
const CSV_MAX_ROWS = 100_000
const COLUMNS = ['id', 'created_at', 'invoice', 'direction', 'type', 'amount', 'balance_before', 'balance_after', 'description'] as const

type LedgerFilter = { direction?: 'credit' | 'debit'; type?: 'topup' | 'purchase' | 'refund' | 'adjustment' }
const filterOf = (q: { direction?: string; type?: string }): LedgerFilter => ({
  direction: (q.direction || undefined) as LedgerFilter['direction'],
  type: (q.type || undefined) as LedgerFilter['type'],
})

/** The balance's ledger (the API's /balance/mutations) with its filters, and the same rows as CSV. */
export function ledgerPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/dashboard/ledger', { schema: { hide, querystring: LedgerQuery } }, async (request, reply) => {
      const { page = 1, cursor } = request.query
      const filter = filterOf(request.query)
      const list = await listMutations(request.readDb, request.dashboardUser.account_id, filter, pageWindow({ page, per_page: 50, cursor }))
      const query = new URLSearchParams({ direction: filter.direction ?? '', type: filter.type ?? '' })
      const next = list.meta.next_cursor ? `/dashboard/ledger?${query}&cursor=${list.meta.next_cursor}` : undefined
      const texts = TEXTS[request.dashboardLang]
      const rows = list.data.map((r) => ({ ...r, said: ledgerDescription(texts, r) }))
      return reply.screen('ledger.eta', { rows, meta: list.meta, filter, next, csv: `/dashboard/ledger.csv?${query}` })
    })
    app.get('/dashboard/ledger.csv', { schema: { hide, querystring: CsvQuery } }, async (request, reply) => {
      const filter = filterOf(request.query)
      const accountId = request.dashboardUser.account_id
      const lines = [csvLine([...COLUMNS])]
      let cursor: string | undefined
      for (let rows = 0; rows < CSV_MAX_ROWS; rows += CSV_PAGE) {
        const { data, meta } = await listMutations(request.readDb, accountId, filter, pageWindow({ page: 1, per_page: CSV_PAGE, cursor }))
        for (const r of data) lines.push(csvLine(COLUMNS.map((c) => (c === 'created_at' ? r.created_at.toISOString() : r[c]))))
        if (!meta.next_cursor) break
        cursor = meta.next_cursor
      }
      return reply
        .type('text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="ledger-${accountId}.csv"`)
        .send(lines.join('\r\n') + '\r\n')
    })
  }
}
