import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok, paginate } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { IdParam } from '../../http/schemas.js'
import { COMPLAINT_OPERATOR_DOCS as DOCS } from './operator.openapi.js'
import {
  ComplaintListQuery,
  OneOperatorComplaint,
  OperatorComplaintPage,
  RefundBody,
  RejectBody,
  ReplyBody,
  ResendBody,
} from './operator.schemas.js'
import { recheckComplaint } from './operator-recheck.service.js'
import { resendComplaint } from './operator-resend.service.js'
import { getOperatorComplaint, listOperatorQueue, refundComplaintLine, rejectComplaint, replyToComplaint } from './operator.service.js'

const tags = ['operator']

/** The operator's side of complaints (docs/design.md §14): the queue, one complaint, and its steps, each as the calling operator. */
export function complaintAdminRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db, vault, config } = ctx
  const sla = () => ({ now: ctx.clock.now(), hours: config.complaintSlaHours })
  return async (app) => {
    app.get(
      '/complaints',
      {
        schema: {
          tags,
          summary: 'The complaints queue (not closed, oldest first, against the SLA), or every complaint',
          querystring: ComplaintListQuery,
          ...operation('operator', DOCS.adminListComplaints, { 200: OperatorComplaintPage }),
        },
      },
      async (request) => {
        const { view = 'queue', page = 1, per_page = 50, status, reason, account_id } = request.query
        const { rows, total } = await listOperatorQueue(db, sla(), { view, page, per_page, status, reason, account_id })
        return ok(rows, paginate({ page, per_page }, total))
      },
    )
    app.get(
      '/complaints/:id',
      {
        schema: {
          tags,
          summary: 'One complaint: its thread, order, line and upstream request',
          params: IdParam,
          ...operation('operator', DOCS.adminGetComplaint, { 200: OneOperatorComplaint }),
        },
      },
      async (request) => ok(await getOperatorComplaint(db, sla(), request.params.id)),
    )
    const step = { tags, params: IdParam }
    app.post(
      '/complaints/:id/reply',
      {
        schema: {
          ...step,
          summary: 'Answer the reseller (answered)',
          body: ReplyBody,
          ...operation('operator', DOCS.adminReplyComplaint, { 200: OneOperatorComplaint }),
        },
      },
      async (request) => ok(await replyToComplaint(db, sla(), request.params.id, request.body.message, request.operator.name)),
    )
    app.post(
      '/complaints/:id/resend',
      {
        schema: {
          ...step,
          summary: 'Deliver the line again (closed: resent)',
          body: ResendBody,
          ...operation('operator', DOCS.adminResendComplaint, { 200: OneOperatorComplaint }),
        },
      },
      async (request) => ok(await resendComplaint(db, vault, sla(), request.params.id, request.body, request.operator.name)),
    )
    app.post(
      '/complaints/:id/recheck',
      {
        schema: {
          ...step,
          summary: 'Ask the provider about the line’s upstream request (never a new order)',
          ...operation('operator', DOCS.adminRecheckComplaint, { 200: OneOperatorComplaint }),
        },
      },
      async (request) => ok(await recheckComplaint(db, vault, sla(), config.providerTimeoutMs, request.params.id, request.operator.name)),
    )
    app.post(
      '/complaints/:id/refund',
      {
        // Refunding with nothing to say is fine: a body-less POST counts as an empty object.
        preValidation: async (request) => void (request.body ??= {}),
        schema: {
          ...step,
          summary: 'Refund what is left of the line, once (closed: refunded)',
          body: RefundBody,
          ...operation('operator', DOCS.adminRefundComplaint, { 200: OneOperatorComplaint }),
        },
      },
      async (request) => ok(await refundComplaintLine(db, sla(), request.params.id, request.body.message, request.operator.name)),
    )
    app.post(
      '/complaints/:id/reject',
      {
        schema: {
          ...step,
          summary: 'Reject the complaint with a reason (closed: rejected)',
          body: RejectBody,
          ...operation('operator', DOCS.adminRejectComplaint, { 200: OneOperatorComplaint }),
        },
      },
      async (request) => ok(await rejectComplaint(db, sla(), request.params.id, request.body.reason, request.operator.name)),
    )
  }
}
