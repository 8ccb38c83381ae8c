import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../errors.js'
import { toAppError } from './error-handler.js'
import type { PageLang } from './page-format.js'
import { ERROR_PAGE_EN } from './web-error-texts.en.js'
import { ERROR_PAGE_ID, type ErrorPageTexts } from './web-error-texts.id.js'

// The error page of the console and the dashboard: a failure in the house's terms (the code, its
// field errors, the service's detail), never a stack; each area lays it out in its own error.eta.

export const ERROR_PAGE_TEXTS: Record<PageLang, ErrorPageTexts> = { en: ERROR_PAGE_EN, id: ERROR_PAGE_ID }

/** What an error page shows: its heading, the catalogue of its language, the code, the detail and each field's sentences. */
export type ErrorPage = {
  status: number
  code: string
  heading: string
  errors: ErrorPageTexts
  detail?: string
  fields: Record<string, string[]>
}

/** How an area says a refusal's words (the console in Indonesian); as the service said them when it does not. */
export type SayFailure = (appError: AppError, lang: PageLang) => { detail?: string; fields: Record<string, string[]> }
const asSaid: SayFailure = (appError) => ({
  detail: appError.message !== appError.code ? appError.message : undefined,
  fields: appError.fieldErrors ?? {},
})

/** An area's error page: the language of a request, how the area sends the page (its layout), and its words for a refusal. */
export type ErrorPageOf = {
  langOf: (request: FastifyRequest) => PageLang
  show: (reply: FastifyReply, page: ErrorPage) => FastifyReply
  say?: SayFailure
}

/** The error page's data for a failure, in the page's language. */
export function errorPage(appError: AppError, lang: PageLang, say: SayFailure = asSaid): ErrorPage {
  const errors = ERROR_PAGE_TEXTS[lang]
  const heading = errors.headings[appError.status] ?? (appError.status >= 500 ? errors.server : errors.refused)
  return { status: appError.status, code: appError.code, heading, errors, ...say(appError, lang) }
}

/**
 * A page's failure in the house's terms: @fastify/csrf-protection's refusals (FST_CSRF_*) are the
 * house's INVALID_CSRF_TOKEN; a server fault (not a 503) is logged as the area's, never shown.
 */
export function pageFailure(error: FastifyError, request: FastifyRequest, area: string): AppError {
  const appError = error.code?.startsWith('FST_CSRF') ? new AppError('INVALID_CSRF_TOKEN') : toAppError(error)
  if (appError.status >= 500 && appError.code !== 'SERVICE_UNAVAILABLE') request.log.error({ err: error }, `${area} request failed`)
  return appError
}

/** An area's error handler: the failure (with its headers: a Retry-After) as the area's error page. */
export function pageErrorHandler(area: string, page: ErrorPageOf) {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = pageFailure(error, request, area)
    if (appError.headers) reply.headers(appError.headers)
    return page.show(reply.status(appError.status), errorPage(appError, page.langOf(request), page.say))
  }
}
