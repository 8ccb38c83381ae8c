import crypto from 'node:crypto'
import view from '@fastify/view'
import { Type, type TProperties } from '@sinclair/typebox'
import { Eta } from 'eta'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../errors.js'
import { toAppError } from './error-handler.js'

// What the server-rendered areas (the console, the dashboard) share: the cookie secret, the views,
// the headers, the CSRF check of every POST, how a failure becomes the error page's data, and forms.

/** Signs an area's cookies (the CSRF secret); derived per area, so APP_KEY stays the one secret to keep. */
export function areaCookieSecret(appKey: string, area: string): string {
  return crypto.createHmac('sha256', appKey).update(`${area}-cookies`).digest('hex')
}

/** Eta templates from the area's views directory, cached in production. */
export async function registerViews(app: FastifyInstance, viewsDir: string, production: boolean): Promise<void> {
  await app.register(view, {
    engine: { eta: new Eta({ views: viewsDir, cache: production }) },
    templates: viewsDir,
    production,
  })
}

/** Pages are never framed and tell other sites nothing of where the visitor was. */
export function pageSecurityHeaders(reply: FastifyReply): void {
  reply.header('x-frame-options', 'DENY').header('referrer-policy', 'same-origin')
}

/** Every state change is a POST and carries its CSRF token, checked before its fields are. */
export function checkCsrfOnPosts(app: FastifyInstance): void {
  app.addHook('preValidation', (request, reply, done) => (request.method === 'POST' ? app.csrfProtection(request, reply, done) : done()))
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

/** A form's body: its fields, plus the CSRF token every form carries. */
export const Form = <T extends TProperties>(fields: T) => Type.Object({ ...fields, _csrf: Type.String() })
