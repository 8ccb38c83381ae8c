import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { pageFailure } from '../../http/web-pages.js'

/** Failures as a page in the visitor's language (the code and the field errors beside it), never a stack. */
export function dashboardErrorHandler() {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = pageFailure(error, request, 'dashboard')
    if (appError.headers) reply.headers(appError.headers)
    return reply
      .status(appError.status)
      .screen('error.eta', { status: appError.status, code: appError.code, fields: appError.fieldErrors ?? {} })
  }
}
