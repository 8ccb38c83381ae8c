import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { AppContext } from '../../context.js'
import { ok, paginate } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { IdParam } from '../../http/schemas.js'
import { ignoreMutation, listMutations, matchMutation } from './bank-mutations.service.js'
import { withReference } from './bank-mutations.view.js'
import {
  BankMutationPage,
  BankMutationsQuery,
  IgnoreBody,
  ImportCounts,
  ImportQuery,
  MatchBody,
  OneBankMutation,
  StatementBody,
} from './bank-mutations.schemas.js'
import { importStatement } from './bank-statement.js'
import { BANK_DOCS } from './bank-transfer.openapi.js'

const tags = ['operator']
const STATEMENT_LIMIT = 10 * 1024 * 1024

/** The operator's side of bank transfers (docs/design.md §7b): the mutations, matching by hand, ignoring, a statement import. */
export function bankMutationAdminRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    // The statement as sent (text/csv), or inside JSON as `csv`: one body shape for both.
    app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: STATEMENT_LIMIT }, (_request, body, done) =>
      done(null, { csv: body }),
    )
    app.get(
      '/bank-mutations',
      {
        schema: {
          tags,
          summary: 'Bank mutations: unmatched first, then newest first',
          querystring: BankMutationsQuery,
          ...operation('operator', BANK_DOCS.adminListBankMutations, { 200: BankMutationPage }),
        },
      },
      async (request) => {
        const { page = 1, per_page = 50, status, type, account_number } = request.query
        const { rows, total } = await listMutations(db, { page, per_page, status, type, account_number })
        return ok(rows, paginate({ page, per_page }, total))
      },
    )
    app.post(
      '/bank-mutations/:id/match',
      {
        schema: {
          tags,
          summary: 'Match a credit to a bank-transfer top-up: its amount credited once',
          params: IdParam,
          body: MatchBody,
          ...operation('operator', BANK_DOCS.adminMatchBankMutation, { 200: OneBankMutation }),
        },
      },
      async (request) => {
        const { mutation } = await matchMutation(db, request.params.id, request.body.topup_reference, request.body.note)
        return ok(await withReference(db, mutation))
      },
    )
    app.post(
      '/bank-mutations/:id/ignore',
      {
        schema: {
          tags,
          summary: 'Set a mutation aside: it credits nothing',
          params: IdParam,
          body: Type.Optional(IgnoreBody),
          ...operation('operator', BANK_DOCS.adminIgnoreBankMutation, { 200: OneBankMutation }),
        },
      },
      async (request) => ok(await withReference(db, await ignoreMutation(db, request.params.id, request.body?.note))),
    )
    app.post(
      '/bank-mutations/import',
      {
        bodyLimit: STATEMENT_LIMIT,
        schema: {
          tags,
          summary: 'Import a bank statement (CSV) through the matcher',
          querystring: ImportQuery,
          consumes: ['text/csv', 'application/json'],
          body: StatementBody,
          ...operation('operator', BANK_DOCS.adminImportBankStatement, { 200: ImportCounts }),
        },
      },
      async (request) => ok(await importStatement(db, request.query.channel, request.body.csv)),
    )
  }
}
