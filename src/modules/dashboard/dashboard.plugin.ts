import fs from 'node:fs'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.js'
import { readYourWrites } from '../../http/read-your-writes.js'
import { AppError } from '../../errors.js'
import { registerWebArea, sendPage, serveAsset } from '../../http/web-pages.js'
import { authRoutes, SESSION_COOKIE } from './auth.routes.js'
import { viewHelpers } from './format.js'
import { homePages } from './home.pages.js'
import { ledgerPages } from './ledger.pages.js'
import { orderPages } from './orders.pages.js'
import { complaintPages } from './complaints.pages.js'
import { accessPages } from './access.pages.js'
import { webhookPages } from './webhook.pages.js'
import { userPages } from './users.pages.js'
import { topupPages } from './topup.pages.js'
import { lockPages } from './locks.pages.js'
import { leaderboardPages } from './leaderboard.pages.js'
import { passwordPages } from './password.pages.js'
import { twoStepPages } from './two-step.pages.js'
import { accountPages } from './accounts.pages.js'
import { sessionUser, type DashboardUser } from './sessions.service.js'
import { LANG_COOKIE, languageOf, type Lang } from './texts.js'

const here = (path: string) => new URL(path, import.meta.url)
const css = fs.readFileSync(here('./assets/dashboard.css'))
// The code page is open to a sign-in still waiting for its second factor: its route checks that session itself.
const isOpen = (path: string) =>
  path === '/dashboard/sign-in' ||
  path === '/dashboard/sign-in/code' ||
  path.startsWith('/dashboard/invite/') ||
  path.startsWith('/dashboard/assets/')
// While the account is suspended these still work: they act on the person (leave, own password and
// second factor, which account to look at), never on the account's keys, money, settings or people.
const PERSONAL = new Set([
  '/dashboard/sign-out',
  '/dashboard/password',
  '/dashboard/accounts',
  '/dashboard/two-step',
  '/dashboard/two-step/confirm',
  '/dashboard/two-step/off',
])

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in dashboard user (set on every page but sign-in and invites). */
    dashboardUser: DashboardUser
    dashboardLang: Lang
  }
  interface FastifyReply {
    /** A full dashboard page: the template in the layout, with the texts of the visitor's language and a CSRF token. */
    screen(template: string, data?: Record<string, unknown>): FastifyReply
  }
}

/**
 * The reseller dashboard (docs/design.md §13) at /dashboard: server-rendered pages for the people of a
 * reseller account, over the same services as the API and the console, scoped to the session's account.
 */
export function dashboardPlugin(ctx: AppContext) {
  const production = ctx.config.appEnv === 'production'
  const helpers = { id: viewHelpers('id', ctx.config.leaderboardTz), en: viewHelpers('en', ctx.config.leaderboardTz) }
  return async (app: FastifyInstance) => {
    await registerWebArea(app, {
      name: 'dashboard',
      appKey: ctx.config.appKey!,
      production,
      viewsDir: here('./views').pathname,
      csrf: {
        sameSite: 'lax',
        cookieKey: '_dashboard_csrf',
        getToken: (request: FastifyRequest) => (request.body as { _csrf?: string } | undefined)?._csrf,
      },
      // The error page in the visitor's language, the code's meaning and the field errors beside it.
      errorPage: { langOf: (request) => request.dashboardLang, show: (reply, page) => reply.screen('error.eta', page) },
    })
    readYourWrites(app, ctx, '/dashboard')
    app.decorateRequest('dashboardUser', null as unknown as DashboardUser)
    app.decorateRequest('dashboardLang', 'id' as Lang)
    app.decorateReply('screen', function (this: FastifyReply, template: string, data: Record<string, unknown> = {}) {
      const request = this.request
      return sendPage(this, template, {
        ...helpers[request.dashboardLang],
        user: request.dashboardUser ?? undefined,
        path: request.url.split('?')[0],
        ...data,
      })
    })
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const asked = (request.query as { lang?: string } | undefined)?.lang
      request.dashboardLang = languageOf(asked ?? request.cookies[LANG_COOKIE])
      if (asked === 'id' || asked === 'en') {
        reply.setCookie(LANG_COOKIE, asked, { path: '/dashboard', sameSite: 'lax', secure: production, maxAge: 365 * 86400 })
      }
      if (isOpen(request.url.split('?')[0]!)) return
      const user = await sessionUser(ctx.db, request.cookies[SESSION_COOKIE])
      if (user) {
        request.dashboardUser = user
        return
      }
      return reply.redirect('/dashboard/sign-in', 303)
    })
    // A suspended account's people read but do not act: one hook, so no state-changing route can forget it.
    app.addHook('preHandler', async (request) => {
      const user = request.dashboardUser
      if (
        request.method !== 'GET' &&
        request.method !== 'HEAD' &&
        user?.account_status === 'suspended' &&
        !PERSONAL.has(request.url.split('?')[0]!)
      ) {
        throw new AppError('THE_ACCOUNT_HAS_BEEN_SUSPENDED')
      }
    })
    serveAsset(app, '/dashboard/assets/dashboard.css', { schema: { hide: true } }, 'text/css', 3600, css)
    await app.register(authRoutes(ctx))
    await app.register(homePages(ctx))
    await app.register(ledgerPages(ctx))
    await app.register(orderPages(ctx))
    await app.register(complaintPages(ctx))
    await app.register(accessPages(ctx))
    await app.register(webhookPages(ctx))
    await app.register(userPages(ctx))
    await app.register(topupPages(ctx))
    await app.register(lockPages(ctx))
    await app.register(leaderboardPages(ctx))
    await app.register(passwordPages(ctx))
    await app.register(twoStepPages(ctx))
    await app.register(accountPages(ctx))
    // A path no page has (or the trailing slash): the error page in the dashboard's layout, not the API's JSON.
    app.get('/dashboard/', { schema: { hide: true } }, (_request, reply) => reply.redirect('/dashboard', 301))
    app.get('/dashboard/*', { schema: { hide: true } }, async () => {
      throw new AppError('NOT_FOUND')
    })
  }
}
