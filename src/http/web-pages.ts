import crypto from 'node:crypto'
import cookie from '@fastify/cookie'
import csrf from '@fastify/csrf-protection'
import formbody from '@fastify/formbody'
import view from '@fastify/view'
import { Type, type TProperties } from '@sinclair/typebox'
import { Eta } from 'eta'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify'
import { pageErrorHandler, type ErrorPageOf } from './web-error-page.js'

// What the server-rendered areas (the console, the dashboard) share: the cookie secret, the views,
// the headers, the CSRF check of every POST, how a page and an asset are sent, forms, and the
// registration that puts these together (the error page is web-error-page.ts, a refused form's
// sentences web-refusals.ts, the view helpers page-format.ts).

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

/** A form's body: its fields, plus the CSRF token every form carries. */
export const Form = <T extends TProperties>(fields: T) => Type.Object({ ...fields, _csrf: Type.String() })

/** A list typed into a text box (an IP allow-list): its entries, split at white space and commas. */
export const typedList = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean)

/** How an area (`/console`, `/dashboard`) is set up: registerWebArea's settings. */
export type WebArea = {
  /** Its name: its path, the derivation of its cookie secret, and what its failures are logged as. */
  name: string
  appKey: string
  production: boolean
  viewsDir: string
  /** The CSRF cookie: its SameSite, its name when not the plugin's default, and where a request carries the token. */
  csrf: { sameSite: 'strict' | 'lax'; cookieKey?: string; getToken: (request: FastifyRequest) => string | undefined }
  /** The largest form body, when not the plugin's default. */
  formBodyLimit?: number
  /** Its error page: the language, the area's template, and how it says a refusal's words. */
  errorPage: ErrorPageOf
}

/**
 * Registers what every page of an area stands on: cookies signed under the area's secret, form
 * bodies, CSRF tokens in a signed cookie of the area's path (checked on every POST), its views, its
 * error page and the pages' headers. The area then adds its session gate and its pages.
 */
export async function registerWebArea(app: FastifyInstance, area: WebArea): Promise<void> {
  await app.register(cookie, { secret: areaCookieSecret(area.appKey, area.name) })
  await app.register(formbody, area.formBodyLimit === undefined ? {} : { bodyLimit: area.formBodyLimit })
  await app.register(csrf, {
    ...(area.csrf.cookieKey !== undefined && { cookieKey: area.csrf.cookieKey }),
    cookieOpts: { path: `/${area.name}`, httpOnly: true, sameSite: area.csrf.sameSite, secure: area.production, signed: true },
    getToken: area.csrf.getToken,
  })
  await registerViews(app, area.viewsDir, area.production)
  app.setErrorHandler(pageErrorHandler(area.name, area.errorPage))
  app.addHook('onRequest', async (_request, reply) => pageSecurityHeaders(reply))
  checkCsrfOnPosts(app)
}

/** A full page of an area: never kept by a cache, with a fresh CSRF token for its forms. */
export function sendPage(reply: FastifyReply, template: string, data: Record<string, unknown>): FastifyReply {
  return reply.header('cache-control', 'no-store').view(template, { csrfToken: reply.generateCsrf(), ...data })
}

/** A static asset's route: its bytes, its type, and how long browsers may keep it. */
export function serveAsset(
  app: FastifyInstance,
  url: string,
  options: RouteShorthandOptions,
  type: string,
  maxAge: number,
  body: Buffer | string,
) {
  app.get(url, options, (_request, reply) => reply.type(type).header('cache-control', `public, max-age=${maxAge}`).send(body))
}
