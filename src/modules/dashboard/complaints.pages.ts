import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { COMPLAINT_REASONS, COMPLAINT_STATUSES, type ComplaintReason } from '../../db/schema.js'
import { AppError } from '../../errors.js'
import { pageWindow } from '../../http/paging.js'
import { PageNumber, RowId, StringEnum } from '../../http/schemas.js'
import { Form } from '../../http/web-pages.js'
import { addResellerMessage, getComplaint, listComplaints, openComplaint, takesComplaint } from '../complaints/index.js'
import { complaintWindow, showComplaint, showOrder, transactionOf } from './complaint-screens.js'
import { fieldRefusals } from './refusals.js'
import { TEXTS } from './texts.js'
import type { ComplaintTexts } from './texts-complaints.id.js'

/** The longest message a thread keeps (complaint_messages.body). */
const MESSAGE_MAX = 2000

/** A message's own faults, before anything is sent. */
function checkMessage(texts: ComplaintTexts, message: string): Record<string, string> {
  const length = message.trim().length
  if (length === 0) return { message: texts.refusals.messageEmpty }
  if (length > MESSAGE_MAX) return { message: texts.refusals.messageLong(MESSAGE_MAX, length) }
  return {}
}

const hide = true
const ListQuery = Type.Object({
  status: Type.Optional(StringEnum(['', ...COMPLAINT_STATUSES])),
  page: Type.Optional(PageNumber),
  cursor: Type.Optional(Type.String({ maxLength: 40 })),
})
const Done = Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) })
const IdParam = Type.Object({ id: RowId() })
const RefParam = Type.Object({ ref: Type.String({ minLength: 1, maxLength: 191 }) })
// Loose on purpose: whose order or complaint it is is answered first (another's is a 404), then a
// wrong field comes back next to itself with what was typed, never as an error page.
const OpenForm = Form({
  order_item_id: Type.Optional(Type.String({ maxLength: 20 })),
  reason: Type.Optional(Type.String({ maxLength: 40 })),
  message: Type.Optional(Type.String({ maxLength: 20_000 })),
})
const ReplyForm = Form({
  message: Type.Optional(Type.String({ maxLength: 20_000 })),
  // The page the form was on, where it comes back to.
  from: Type.Optional(StringEnum(['order', 'complaint'])),
})

/**
 * Complaints (docs/design.md §14): the account's list, a complaint's page, and the forms of the
 * transaction page (open one on a line) and of a thread (reply). Owner and staff alike; the author
 * is the signed-in person's email.
 */
export function complaintPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get('/dashboard/complaints', { schema: { hide, querystring: ListQuery } }, async (request, reply) => {
      const { page = 1, cursor } = request.query
      const status = request.query.status || undefined
      const list = await listComplaints(db, request.dashboardUser.account_id, status, pageWindow({ page, per_page: 50, cursor }))
      const next = list.meta.next_cursor ? `/dashboard/complaints?status=${status ?? ''}&cursor=${list.meta.next_cursor}` : undefined
      return reply.screen('complaints.eta', { rows: list.data, meta: list.meta, status: status ?? '', next })
    })
    app.get('/dashboard/complaints/:id', { schema: { hide, params: IdParam, querystring: Done } }, async (request, reply) =>
      showComplaint(ctx, request, reply, request.params.id, { done: request.query.done }),
    )
    app.post('/dashboard/transactions/:ref/complaints', { schema: { hide, params: RefParam, body: OpenForm } }, async (request, reply) => {
      const user = request.dashboardUser
      const texts = TEXTS[request.dashboardLang].complaints
      const order = await transactionOf(ctx, user.account_id, request.params.ref)
      const { order_item_id = '', reason = '', message = '' } = request.body
      const lineId = /^\d{1,15}$/.test(order_item_id) ? Number(order_item_id) : 0
      const line = order.items.find((l) => l.id === lineId)
      const form = { kind: 'open' as const, line: lineId, reason, message }
      const errors = { ...checkMessage(texts, message) }
      if (!line) errors.line = texts.refusals.notALine
      if (!(COMPLAINT_REASONS as readonly string[]).includes(reason)) errors.reason = texts.refusals.reason
      if (Object.keys(errors).length) return showOrder(ctx, request, reply.status(422), order.invoice, { form: { ...form, errors } })
      try {
        const opened = await openComplaint(
          db,
          complaintWindow(ctx),
          user.account_id,
          order.invoice,
          { order_item_id: lineId, reason: reason as ComplaintReason, message: message.trim() },
          { name: user.email },
        )
        return reply.redirect(`/dashboard/complaints/${opened.id}?done=opened`, 303)
      } catch (error) {
        // Its status alone decides when the window is taken as open at the order's own time.
        const open = takesComplaint({ now: order.created_at, days: 1 }, order.created_at, line!.status)
        const statusLabel = TEXTS[request.dashboardLang].lineStatuses[line!.status] ?? line!.status
        const complaint = { form: 'open' as const, statusLabel, open, days: ctx.config.complaintDays }
        const refused = fieldRefusals(error, TEXTS[request.dashboardLang], { complaint })
        return showOrder(ctx, request, reply.status(422), order.invoice, { form: { ...form, errors: refused } })
      }
    })
    app.post('/dashboard/complaints/:id/messages', { schema: { hide, params: IdParam, body: ReplyForm } }, async (request, reply) => {
      const user = request.dashboardUser
      const texts = TEXTS[request.dashboardLang].complaints
      const complaint = await getComplaint(db, user.account_id, request.params.id)
      const { message = '', from = 'complaint' } = request.body
      const sendBack = (errors: Record<string, string>) => {
        const form = { kind: 'reply' as const, complaint: complaint.id, message, errors }
        return from === 'order'
          ? showOrder(ctx, request, reply.status(422), complaint.invoice, { form })
          : showComplaint(ctx, request, reply.status(422), complaint.id, { form })
      }
      const wrong = checkMessage(texts, message)
      if (wrong.message) return sendBack(wrong)
      try {
        await addResellerMessage(db, user.account_id, complaint.id, message.trim(), { name: user.email })
      } catch (error) {
        if (error instanceof AppError && error.code === 'COMPLAINT_NOT_FOUND') throw error
        return sendBack(fieldRefusals(error, TEXTS[request.dashboardLang], { complaint: { form: 'reply' } }))
      }
      return reply.redirect(
        from === 'order'
          ? `/dashboard/transactions/${encodeURIComponent(complaint.invoice)}?done=replied#complaint-${complaint.id}`
          : `/dashboard/complaints/${complaint.id}?done=replied`,
        303,
      )
    })
  }
}
