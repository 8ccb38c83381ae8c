import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../../errors.js'
import { toAppError } from '../../http/error-handler.js'

/** Failures as a page in the visitor's language (the code and the field errors beside it), never a stack. */
export function dashboardErrorHandler() {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // @fastify/csrf-protection's refusals (FST_CSRF_*) are the house's INVALID_CSRF_TOKEN.
    const appError = error.code?.startsWith('FST_CSRF') ? new AppError('INVALID_CSRF_TOKEN') : toAppError(error)
    if (appError.status >= 500 && appError.code !== 'SERVICE_UNAVAILABLE') request.log.error({ err: error }, 'dashboard request failed')
    if (appError.headers) reply.headers(appError.headers)
    return reply
      .status(appError.status)
      .screen('error.eta', { status: appError.status, code: appError.code, fields: appError.fieldErrors ?? {} })
  }
}
