import fs from 'node:fs'
import { createRequire } from 'node:module'
import cookie from '@fastify/cookie'
import csrf from '@fastify/csrf-protection'
import formbody from '@fastify/formbody'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.js'
import { viewHelpers } from '../../http/page-format.js'
import { areaCookieSecret, checkCsrfOnPosts, pageSecurityHeaders, registerViews } from '../../http/web-pages.js'
import { consoleErrorHandler } from './errors.js'
import { authRoutes, SESSION_COOKIE } from './auth.routes.js'
import { overviewPages } from './overview.pages.js'
import { resellerPages } from './resellers.pages.js'
import { orderPages } from './orders.pages.js'
import { catalogPages } from './catalog.pages.js'
import { categoryPages } from './categories.pages.js'
import { resellerActivityPages } from './reseller-activity.pages.js'
import { topupPages } from './topups.pages.js'
import { dashboardUserPages } from './dashboard-users.pages.js'
import { supplierPages } from './suppliers.pages.js'
import { pricingPages } from './pricing.pages.js'
import { marginPages } from './margin.pages.js'
import { auditLogPages } from './audit-log.pages.js'
import { isSessionLive } from './sessions.service.js'
import { ICON_HREF, ICON_SVG } from '../../http/icon.js'

const here = (path: string) => new URL(path, import.meta.url)
const htmx = fs.readFileSync(createRequire(import.meta.url).resolve('htmx.org/dist/htmx.min.js'))
const css = fs.readFileSync(here('./assets/console.css'))
const OPEN = new Set(['/console/sign-in', '/console/assets/htmx.min.js', '/console/assets/console.css', '/favicon.ico'])

declare module 'fastify' {
  interface FastifyReply {
    /** A full console page: the template inside the layout, with the CSRF token and the view helpers. */
    page(template: string, data?: Record<string, unknown>): FastifyReply
  }
}

/**
 * The operator console at /console: server-rendered pages over the same services as the
 * operator API. Everything but sign-in, two static assets and the icon needs a live session.
 */
export function consolePlugin(ctx: AppContext) {
  const production = ctx.config.appEnv === 'production'
  const cookieSecret = areaCookieSecret(ctx.config.appKey!, 'console')
  const helpers = viewHelpers(ctx.config.leaderboardTz)
  return async (app: FastifyInstance) => {
    await app.register(cookie, { secret: cookieSecret })
    await app.register(formbody, { bodyLimit: 8 * 1024 * 1024 })
    await app.register(csrf, {
      cookieOpts: { path: '/console', httpOnly: true, sameSite: 'strict', secure: production, signed: true },
      getToken: (request: FastifyRequest) =>
        (request.body as { _csrf?: string } | undefined)?._csrf ?? (request.headers['csrf-token'] as string),
    })
    await registerViews(app, here('./views').pathname, production)
    app.decorateReply('page', function (this: FastifyReply, template: string, data: Record<string, unknown> = {}) {
      const csrfToken = this.generateCsrf()
      return this.header('cache-control', 'no-store').view(template, {
        ...helpers,
        icon: ICON_HREF,
        csrfToken,
        path: this.request.url,
        ...data,
      })
    })
    app.setErrorHandler(consoleErrorHandler())
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      pageSecurityHeaders(reply)
      if (OPEN.has(request.url.split('?')[0])) return
      if (await isSessionLive(ctx.db, request.cookies[SESSION_COOKIE])) return
      // htmx follows HX-Redirect; a plain browser the 303.
      return reply.header('hx-redirect', '/console/sign-in').redirect('/console/sign-in', 303)
    })
    // Every state change is a POST and carries the form's (or htmx's header) CSRF token.
    checkCsrfOnPosts(app)
    app.get('/console/assets/htmx.min.js', { schema: { hide: true } }, (_request, reply) =>
      reply.type('text/javascript').header('cache-control', 'public, max-age=86400').send(htmx),
    )
    app.get('/console/assets/console.css', { schema: { hide: true } }, (_request, reply) =>
      reply.type('text/css').header('cache-control', 'public, max-age=3600').send(css),
    )
    // Browsers ask every site for /favicon.ico (the API docs, the pay page): an icon, not a logged 404.
    app.get('/favicon.ico', { schema: { hide: true } }, (_request, reply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(ICON_SVG),
    )
    // The whole OpenAPI document, operator API included: production shows the public one without it.
    app.get('/console/openapi.json', { schema: { hide: true } }, async () => app.swagger())
    await app.register(authRoutes(ctx))
    await app.register(overviewPages(ctx))
    await app.register(resellerPages(ctx))
    await app.register(orderPages(ctx))
    await app.register(catalogPages(ctx))
    await app.register(categoryPages(ctx))
    await app.register(resellerActivityPages(ctx))
    await app.register(topupPages(ctx))
    await app.register(dashboardUserPages(ctx))
    await app.register(supplierPages(ctx))
    await app.register(pricingPages(ctx))
    await app.register(marginPages(ctx))
    await app.register(auditLogPages(ctx))
  }
}
