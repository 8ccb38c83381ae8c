import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { pageFailure } from '../../http/web-pages.js'

/** Failures as an HTML page in the house's terms (the API's code and field errors), never a stack. */
export function consoleErrorHandler() {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = pageFailure(error, request, 'console')
    const detail = appError.message !== appError.code ? appError.message : undefined
    return reply
      .status(appError.status)
      .header('cache-control', 'no-store')
      .page('error.eta', { status: appError.status, code: appError.code, detail, fields: appError.fieldErrors ?? {} })
  }
}
