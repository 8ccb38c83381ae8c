import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { COMPLAINT_REASONS, COMPLAINT_STATUSES } from '../../db/schema.js'
import { IdParam, PageNumber, RowId, StringEnum } from '../../http/schemas.js'
import {
  getOperatorComplaint,
  listOperatorQueue,
  recheckComplaint,
  refundComplaintLine,
  rejectComplaint,
  replyToComplaint,
  resendComplaint,
} from '../complaints/index.js'
import { invalidField } from '../../errors.js'
import { Form, Optional, Text, blankToUndefined, noticeOf } from './form.js'

const hide = true
const PER_PAGE = 50
// '' is the form's "any": a select left alone.
const ListQuery = Type.Object({
  view: Optional(StringEnum(['', 'queue', 'all'])),
  status: Optional(StringEnum(['', ...COMPLAINT_STATUSES])),
  reason: Optional(StringEnum(['', ...COMPLAINT_REASONS])),
  account_id: Optional(RowId()),
  page: Optional(PageNumber),
  done: Optional(Type.String({ maxLength: 20 })),
})

/** Complaints (docs/design.md §14): the queue oldest first against the SLA, one complaint with its thread, line and steps. */
export function complaintPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db, vault, config } = ctx
  const sla = () => ({ now: ctx.clock.now(), hours: config.complaintSlaHours })
  const back = (id: number, done: string) => `/console/complaints/${id}?done=${done}`
  return async (app) => {
    app.get(
      '/console/complaints',
      { config: { operationId: 'adminListComplaints' }, schema: { hide, querystring: ListQuery } },
      async (request, reply) => {
        const { status, reason, account_id, page = 1 } = request.query
        // Closed ones are never in the queue: asking for them shows every complaint.
        const view = request.query.view === 'all' || status === 'closed' ? 'all' : 'queue'
        const q = { view, status: status || undefined, reason: reason || undefined, account_id, page, per_page: PER_PAGE } as const
        const { rows, total } = await listOperatorQueue(request.readDb, sla(), q)
        const kept = { view, status: status ?? '', reason: reason ?? '', account_id: account_id ? String(account_id) : '' }
        const link = (to: number) => `?${new URLSearchParams([...Object.entries(kept).filter(([, v]) => v !== ''), ['page', String(to)]])}`
        return reply.page('complaints.eta', {
          rows,
          total,
          page,
          query: kept,
          slaHours: config.complaintSlaHours,
          next: total > page * PER_PAGE ? link(page + 1) : undefined,
          previous: page > 1 ? link(page - 1) : undefined,
          notice: noticeOf(request.query),
        })
      },
    )
    app.get(
      '/console/complaints/:id',
      {
        config: { operationId: 'adminGetComplaint' },
        schema: { hide, params: IdParam, querystring: Type.Object({ done: Optional(Type.String({ maxLength: 20 })) }) },
      },
      async (request, reply) => {
        const complaint = await getOperatorComplaint(db, sla(), request.params.id)
        return reply.page('complaint.eta', { c: complaint, slaHours: config.complaintSlaHours, notice: noticeOf(request.query) })
      },
    )
    app.post(
      '/console/complaints/:id/reply',
      { config: { operationId: 'adminReplyComplaint' }, schema: { hide, params: IdParam, body: Form({ message: Text(2000) }) } },
      async (request, reply) => {
        const message = blankToUndefined(request.body.message)
        if (!message) throw invalidField('message', 'is empty: write what the reseller should read')
        await replyToComplaint(db, sla(), request.params.id, message, request.operator.name)
        return reply.redirect(back(request.params.id, 'replied'), 303)
      },
    )
    app.post(
      '/console/complaints/:id/resend',
      {
        config: { operationId: 'adminResendComplaint' },
        schema: {
          hide,
          params: IdParam,
          body: Form({ mode: StringEnum(['auto', 'manual']), product_license: Optional(Text(10000)), note: Optional(Text(1000)) }),
        },
      },
      async (request, reply) => {
        const { mode } = request.body
        const license = blankToUndefined(request.body.product_license)
        const note = blankToUndefined(request.body.note)
        if (mode === 'manual' && !license) throw invalidField('product_license', 'is empty: type the replacement to send')
        const resend = mode === 'auto' ? { mode } : { mode, product_license: license!, ...(note && { note }) }
        await resendComplaint(db, vault, sla(), request.params.id, resend, request.operator.name)
        return reply.redirect(back(request.params.id, 'resent'), 303)
      },
    )
    app.post(
      '/console/complaints/:id/recheck',
      { config: { operationId: 'adminRecheckComplaint' }, schema: { hide, params: IdParam, body: Form({}) } },
      async (request, reply) => {
        await recheckComplaint(db, vault, sla(), config.providerTimeoutMs, request.params.id, request.operator.name)
        return reply.redirect(back(request.params.id, 'rechecked'), 303)
      },
    )
    app.post(
      '/console/complaints/:id/refund',
      { config: { operationId: 'adminRefundComplaint' }, schema: { hide, params: IdParam, body: Form({ message: Optional(Text(2000)) }) } },
      async (request, reply) => {
        await refundComplaintLine(db, sla(), request.params.id, blankToUndefined(request.body.message), request.operator.name)
        return reply.redirect(back(request.params.id, 'refunded'), 303)
      },
    )
    app.post(
      '/console/complaints/:id/reject',
      { config: { operationId: 'adminRejectComplaint' }, schema: { hide, params: IdParam, body: Form({ reason: Text(2000) }) } },
      async (request, reply) => {
        const reason = blankToUndefined(request.body.reason)
        if (!reason) throw invalidField('reason', 'is empty: say why, as the reseller will read it')
        await rejectComplaint(db, sla(), request.params.id, reason, request.operator.name)
        return reply.redirect(back(request.params.id, 'rejected'), 303)
      },
    )
  }
}
