import fs from 'node:fs'
import { createRequire } from 'node:module'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.js'
import { readYourWrites } from '../../http/read-your-writes.js'
import { areaViewHelpers } from '../../http/page-format.js'
import { registerWebArea, sendPage, serveAsset } from '../../http/web-pages.js'
import { sayConsoleFailure } from './refusals.js'
import { authRoutes } from './auth.routes.js'
import { overviewPages } from './overview.pages.js'
import { resellerPages } from './resellers.pages.js'
import { orderPages } from './orders.pages.js'
import { catalogPages } from './catalog.pages.js'
import { renewCatalogAfterWrites } from '../catalog/index.js'
import { categoryPages } from './categories.pages.js'
import { resellerActivityPages } from './reseller-activity.pages.js'
import { topupPages } from './topups.pages.js'
import { bankMutationPages } from './bank-mutations.pages.js'
import { complaintPages } from './complaints.pages.js'
import { dashboardUserPages } from './dashboard-users.pages.js'
import { supplierPages } from './suppliers.pages.js'
import { pricingPages } from './pricing.pages.js'
import { priceLevelPages } from './price-levels.pages.js'
import { marginPages } from './margin.pages.js'
import { auditLogPages } from './audit-log.pages.js'
import { alertPages } from './alerts.pages.js'
import { ICON_SVG } from '../../http/icon.js'
import { actingScope } from '../../http/auth.js'
import { mayCall } from '../team/index.js'
import { consoleAccess } from './access.js'
import type { ConsoleSession } from './sessions.service.js'
import { signInStepPages } from './sign-in-steps.pages.js'
import { invitePages } from './invite.pages.js'
import { teamPages } from './team.pages.js'
import { mePages } from './me.pages.js'
import { notFoundPages } from './not-found.pages.js'
import { CONSOLE_LANG_COOKIE, CONSOLE_TEXTS, consoleLanguageOf, noticeIn, type ConsoleLang } from './texts.js'

const here = (path: string) => new URL(path, import.meta.url)
const htmx = fs.readFileSync(createRequire(import.meta.url).resolve('htmx.org/dist/htmx.min.js'))
const css = fs.readFileSync(here('./assets/console.css'))
const open = { config: { consoleAccess: 'open' as const }, schema: { hide: true } }

declare module 'fastify' {
  interface FastifyRequest {
    /** The console session of the request, once the console's hook found it live (none on open routes). */
    consoleSession?: ConsoleSession
    /** The page's language: `?lang=` then the console_lang cookie, English by default (./texts.ts). */
    consoleLang: ConsoleLang
  }
  interface FastifyReply {
    /** A full console page: the template inside the layout, with the CSRF token and the view helpers. */
    page(template: string, data?: Record<string, unknown>): FastifyReply
  }
}

/**
 * The operator console at /console: server-rendered pages over the same services as the
 * operator API. Everything but sign-in, an invitation, two static assets and the icon needs a live
 * session, and each page the role its operation admits (./access.ts).
 */
export function consolePlugin(ctx: AppContext) {
  // Times on the operator's clock in Indonesian notation whatever the language (the operators' habit), no zone label.
  const helpersIn = (lang: ConsoleLang) =>
    areaViewHelpers({ lang, t: CONSOLE_TEXTS[lang], timeZone: ctx.config.leaderboardTz, locale: 'id-ID' }, {})
  const helpers = { en: helpersIn('en'), id: helpersIn('id') }
  return async (app: FastifyInstance) => {
    await registerWebArea(app, {
      name: 'console',
      appKey: ctx.config.appKey!,
      production: ctx.config.appEnv === 'production',
      viewsDir: here('./views').pathname,
      // The form's field, or htmx's header.
      csrf: {
        sameSite: 'strict',
        getToken: (request: FastifyRequest) =>
          (request.body as { _csrf?: string } | undefined)?._csrf ?? (request.headers['csrf-token'] as string),
      },
      formBodyLimit: 8 * 1024 * 1024,
      // The code, the service's detail and the field errors, in the page's language.
      errorPage: {
        langOf: (request) => request.consoleLang,
        show: (reply, page) => reply.page('error.eta', page),
        say: sayConsoleFailure,
      },
    })
    app.decorateRequest('consoleSession', undefined)
    app.decorateRequest('consoleLang', 'en' as ConsoleLang)
    app.decorateReply('page', function (this: FastifyReply, template: string, data: Record<string, unknown> = {}) {
      const session = this.request.consoleSession
      // The nav and who is signed in show only to a session past its sign-in steps.
      const signedIn = session?.stage === 'signed_in'
      const me = signedIn ? (session.operator ?? { email: 'admin token', name: 'admin token', role: 'owner' as const }) : undefined
      const lang = this.request.consoleLang
      const [pathOnly, search = ''] = this.request.url.split('?')
      const query = new URLSearchParams(search)
      query.set('lang', lang === 'en' ? 'id' : 'en')
      return sendPage(this, template, {
        ...helpers[lang],
        path: this.request.url,
        me,
        pending: session !== undefined && !signedIn,
        may: (operationId: string) => me !== undefined && mayCall(me.role, operationId),
        langHref: `${pathOnly}?${query}`,
        ...data,
        // A notice by its key (a page's `done`, else the query's `?done=`), in the page's language.
        notice: noticeIn(
          lang,
          (data.done as string | undefined) ?? (this.request.query as { done?: string } | undefined)?.done,
          data.notice,
        ),
      })
    })
    // Each request in its acting store (db/acting.ts), so a console write is logged as its operator's.
    actingScope(app)
    readYourWrites(app, ctx, '/console')
    renewCatalogAfterWrites(app, ctx.catalog)
    // The language switch (a link in the header, `?lang=`) before the gate: the sign-in page speaks it too.
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const asked = (request.query as { lang?: string } | undefined)?.lang
      request.consoleLang = consoleLanguageOf(asked ?? request.cookies[CONSOLE_LANG_COOKIE])
      if (asked === 'id' || asked === 'en')
        reply.setCookie(CONSOLE_LANG_COOKIE, asked, {
          path: '/console',
          sameSite: 'lax',
          secure: ctx.config.appEnv === 'production',
          maxAge: 365 * 86400,
        })
    })
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => consoleAccess(ctx, request, reply))
    serveAsset(app, '/console/assets/htmx.min.js', open, 'text/javascript', 86400, htmx)
    serveAsset(app, '/console/assets/console.css', open, 'text/css', 3600, css)
    // Browsers ask every site for /favicon.ico (the API docs, the pay page): an icon, not a logged 404.
    serveAsset(app, '/favicon.ico', open, 'image/svg+xml', 86400, ICON_SVG)
    // The whole OpenAPI document, operator API included: production shows the public one without it.
    app.get('/console/openapi.json', { schema: { hide: true } }, async () => app.swagger())
    await app.register(authRoutes(ctx))
    await app.register(signInStepPages(ctx))
    await app.register(invitePages(ctx))
    await app.register(teamPages(ctx))
    await app.register(mePages(ctx))
    await app.register(overviewPages(ctx))
    await app.register(resellerPages(ctx))
    await app.register(orderPages(ctx))
    await app.register(complaintPages(ctx))
    await app.register(catalogPages(ctx))
    await app.register(categoryPages(ctx))
    await app.register(resellerActivityPages(ctx))
    await app.register(topupPages(ctx))
    await app.register(bankMutationPages(ctx))
    await app.register(dashboardUserPages(ctx))
    await app.register(supplierPages(ctx))
    await app.register(pricingPages(ctx))
    await app.register(priceLevelPages(ctx))
    await app.register(marginPages(ctx))
    await app.register(auditLogPages(ctx))
    await app.register(alertPages(ctx))
    await app.register(notFoundPages)
  }
}
