import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { pageWindow } from '../../http/paging.js'
import { COMPLAINT_DOCS } from './complaints.openapi.js'
import {
  ComplaintIdParam,
  ComplaintList,
  ComplaintListQuery,
  ComplaintMessageBody,
  ComplaintRefParam,
  OkComplaint,
  OkComplaints,
  OpenComplaintBody,
} from './complaints.schemas.js'
import type { ComplaintView } from './complaints.view.js'
import { addResellerMessage, getComplaint, listComplaints, listOrderComplaints, openComplaint } from './complaints.service.js'

const tags = ['complaints']

// A message through the API is signed by the API itself; dashboard users sign with their email.
const API_AUTHOR = { name: 'api' }

// The one-complaint answers always carry the thread (the service reads it with the complaint).
const threaded = (c: ComplaintView) => ({ ...c, messages: c.messages ?? [] })

// Stored trimmed: the schema refused a blank one already.
const messageText = (message: string) => message.trim()

/** docs/design.md §14: the reseller's side of complaints (open, read, reply). */
export function complaintRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/trx/:ref/complaints',
      {
        schema: {
          tags,
          summary: 'Complain about one line of a transaction',
          params: ComplaintRefParam,
          body: OpenComplaintBody,
          ...operation('reseller', COMPLAINT_DOCS.openComplaint, { 201: OkComplaint }),
        },
      },
      async (request, reply) => {
        const { order_item_id, reason, message } = request.body
        const window = { now: ctx.clock.now(), days: ctx.config.complaintDays }
        const body = { order_item_id: Number(order_item_id), reason, message: messageText(message) }
        const complaint = await openComplaint(ctx.db, window, request.account.id, request.params.ref, body, API_AUTHOR)
        return reply.status(201).send(ok(threaded(complaint)))
      },
    )
    app.get(
      '/trx/:ref/complaints',
      {
        schema: {
          tags,
          summary: 'The complaints on one transaction, with their threads',
          params: ComplaintRefParam,
          ...operation('reseller', COMPLAINT_DOCS.listOrderComplaints, { 200: OkComplaints }),
        },
      },
      async (request) => ok((await listOrderComplaints(ctx.db, request.account.id, request.params.ref)).map(threaded)),
    )
    app.get(
      '/complaints',
      {
        schema: {
          tags,
          summary: 'Your complaints, newest first',
          querystring: ComplaintListQuery,
          ...operation('reseller', COMPLAINT_DOCS.listComplaints, { 200: ComplaintList }),
        },
      },
      async (request) => {
        const { page = 1, per_page = 20, cursor, status } = request.query
        const { data, meta } = await listComplaints(ctx.db, request.account.id, status, pageWindow({ page, per_page, cursor }))
        return ok(data, meta)
      },
    )
    app.get(
      '/complaints/:id',
      {
        schema: {
          tags,
          summary: 'One complaint with its thread',
          params: ComplaintIdParam,
          ...operation('reseller', COMPLAINT_DOCS.getComplaint, { 200: OkComplaint }),
        },
      },
      async (request) => ok(threaded(await getComplaint(ctx.db, request.account.id, request.params.id))),
    )
    app.post(
      '/complaints/:id/messages',
      {
        schema: {
          tags,
          summary: 'Add your message to a complaint',
          params: ComplaintIdParam,
          body: ComplaintMessageBody,
          ...operation('reseller', COMPLAINT_DOCS.addComplaintMessage, { 200: OkComplaint }),
        },
      },
      async (request) => {
        const message = messageText(request.body.message)
        return ok(threaded(await addResellerMessage(ctx.db, request.account.id, request.params.id, message, API_AUTHOR)))
      },
    )
  }
}
