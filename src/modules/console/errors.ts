import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../../errors.js'
import { toAppError } from '../../http/error-handler.js'

/** Failures as an HTML page in the house's terms (the API's code and field errors), never a stack. */
export function consoleErrorHandler() {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // @fastify/csrf-protection's refusals (FST_CSRF_*) are the house's INVALID_CSRF_TOKEN.
    const appError = error.code?.startsWith('FST_CSRF') ? new AppError('INVALID_CSRF_TOKEN') : toAppError(error)
    if (appError.status >= 500 && appError.code !== 'SERVICE_UNAVAILABLE') request.log.error({ err: error }, 'console request failed')
    const detail = appError.message !== appError.code ? appError.message : undefined
    return reply
      .status(appError.status)
      .header('cache-control', 'no-store')
      .page('error.eta', { status: appError.status, code: appError.code, detail, fields: appError.fieldErrors ?? {} })
  }
}
