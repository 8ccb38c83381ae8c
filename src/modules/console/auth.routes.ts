import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { countFailedAuthentication, isAdminToken } from '../../http/auth.js'
import { endSession, startSession } from './sessions.service.js'

export const SESSION_COOKIE = 'console_session'
const SignInBody = Type.Object({ token: Type.String({ maxLength: 500 }), _csrf: Type.String() })

/** Sign-in with the admin token, exchanged for a session cookie; sign-out ends the session everywhere. */
export function authRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const secure = ctx.config.appEnv === 'production'
  return async (app) => {
    app.get('/console/sign-in', { schema: { hide: true } }, (_request, reply) => reply.page('sign-in.eta'))
    app.post('/console/sign-in', { schema: { hide: true, body: SignInBody } }, async (request, reply) => {
      // Guesses count against the same per-address budget as unknown API keys; the right token always signs in.
      if (!isAdminToken(ctx, request.body.token)) {
        const tooMany = await countFailedAuthentication(ctx, request)
        if (tooMany) throw tooMany
        return reply.status(401).page('sign-in.eta', { failed: true })
      }
      const token = await startSession(ctx.db, ctx.config.consoleSessionHours)
      reply.setCookie(SESSION_COOKIE, token, {
        path: '/console',
        httpOnly: true,
        sameSite: 'strict',
        secure,
        maxAge: ctx.config.consoleSessionHours * 3600,
      })
      return reply.redirect('/console', 303)
    })
    app.post('/console/sign-out', { schema: { hide: true } }, async (request, reply) => {
      await endSession(ctx.db, request.cookies[SESSION_COOKIE])
      reply.clearCookie(SESSION_COOKIE, { path: '/console' })
      return reply.redirect('/console/sign-in', 303)
    })
  }
}
