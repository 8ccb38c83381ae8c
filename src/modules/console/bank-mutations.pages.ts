import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { MUTATION_STATUSES } from '../../db/schema.js'
import { IdParam, PageNumber, StringEnum } from '../../http/schemas.js'
import { ignoreMutation, importStatement, listChannels, listMutations, matchMutation } from '../topups/index.js'
import { Form, Optional, Text, noticeOf } from './form.js'

const hide = true
const PER_PAGE = 50

/** Bank mutations (docs/design.md §7b): what Moota pushed and statements brought, unmatched first; match, ignore, import. */
export function bankMutationPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get(
      '/console/bank-mutations',
      {
        config: { operationId: 'adminListBankMutations' },
        schema: {
          hide,
          querystring: Type.Object({
            status: Optional(StringEnum(['', ...MUTATION_STATUSES])),
            page: Optional(PageNumber),
            done: Optional(Type.String({ maxLength: 20 })),
          }),
        },
      },
      async (request, reply) => {
        const { status, page = 1 } = request.query
        const [{ rows, total }, channels] = await Promise.all([
          listMutations(request.readDb, { page, per_page: PER_PAGE, status: status || undefined }),
          listChannels(request.readDb),
        ])
        const link = (to: number) => `?${new URLSearchParams({ ...(status && { status }), page: String(to) })}`
        return reply.page('bank-mutations.eta', {
          rows,
          total,
          page,
          status: status ?? '',
          next: total > page * PER_PAGE ? link(page + 1) : undefined,
          previous: page > 1 ? link(page - 1) : undefined,
          channels: channels.filter((c) => c.type === 'bank_transfer'),
          notice: noticeOf(request.query),
        })
      },
    )
    // The same match as POST /bank-mutations/{id}/match: the mutation's amount credited to the top-up once.
    app.post(
      '/console/bank-mutations/:id/match',
      {
        config: { operationId: 'adminMatchBankMutation' },
        schema: { hide, params: IdParam, body: Form({ topup_reference: Text(200), note: Optional(Text(500)) }) },
      },
      async (request, reply) => {
        await matchMutation(db, request.params.id, request.body.topup_reference.trim(), request.body.note)
        return reply.redirect('/console/bank-mutations?done=matched', 303)
      },
    )
    app.post(
      '/console/bank-mutations/:id/ignore',
      { config: { operationId: 'adminIgnoreBankMutation' }, schema: { hide, params: IdParam, body: Form({ note: Optional(Text(500)) }) } },
      async (request, reply) => {
        await ignoreMutation(db, request.params.id, request.body.note)
        return reply.redirect('/console/bank-mutations?done=ignored', 303)
      },
    )
    app.post(
      '/console/bank-mutations/import',
      {
        config: { operationId: 'adminImportBankStatement' },
        schema: { hide, body: Form({ channel: Text(32), csv: Text(8 * 1024 * 1024) }) },
      },
      async (request, reply) => {
        await importStatement(db, request.body.channel, request.body.csv)
        return reply.redirect('/console/bank-mutations?done=imported', 303)
      },
    )
  }
}
