import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.js'
import type { SignInStage } from '../../db/schema.js'
import { countFailedAuthentication, isAdminToken } from '../../http/auth.js'
import { checkOperatorPassword, SIGN_IN_LOCK_MINUTES, stageAfterPassword } from '../team/index.js'
import { STEP_PAGES } from './access.js'
import { Form, Optional, Text, noticeOf } from './form.js'
import { endSession, SESSION_COOKIE, startSession } from './sessions.service.js'

const SignInBody = Form({ email: Optional(Text(191)), password: Optional(Text(500)), token: Optional(Text(500)) })
const open = { consoleAccess: 'open' as const }

/**
 * Sign-in: an operator's email and password (then the code or the enrolment their role needs), or
 * the admin token (an owner named "admin token", no second factor: the break-glass way in).
 * Sign-out ends the session everywhere.
 */
export function authRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const secure = ctx.config.appEnv === 'production'
  const hours = ctx.config.consoleSessionHours
  const signIn = async (reply: FastifyReply, operatorId: number | null, stage: SignInStage) => {
    const token = await startSession(ctx.db, hours, operatorId, stage)
    reply.setCookie(SESSION_COOKIE, token, { path: '/console', httpOnly: true, sameSite: 'strict', secure, maxAge: hours * 3600 })
    return reply.redirect(stage === 'signed_in' ? '/console' : STEP_PAGES[stage], 303)
  }
  // Every failure counts against the address's budget (docs/design.md §4): known and unknown emails alike.
  const refuse = async (request: FastifyRequest) => {
    const tooMany = await countFailedAuthentication(ctx, request)
    if (tooMany) throw tooMany
  }
  return async (app) => {
    app.get('/console/sign-in', { config: open, schema: { hide: true } }, (request, reply) =>
      reply.page('sign-in.eta', { notice: noticeOf(request.query) }),
    )
    app.post('/console/sign-in', { config: open, schema: { hide: true, body: SignInBody } }, async (request, reply) => {
      const { email = '', password = '', token } = request.body
      if (token !== undefined) {
        // Guesses count against the same per-address budget as unknown API keys; the right token always signs in.
        if (isAdminToken(ctx, token)) return signIn(reply, null, 'signed_in')
        await refuse(request)
        return reply.status(401).page('sign-in.eta', { failed: 'token' })
      }
      const outcome = await checkOperatorPassword(ctx.db, email, password, request.ip)
      if (outcome && 'operator' in outcome) return signIn(reply, outcome.operator.id, stageAfterPassword(outcome.operator))
      await refuse(request)
      if (outcome) {
        const page = { failed: 'locked', lockMinutes: SIGN_IN_LOCK_MINUTES, email }
        return reply.status(429).header('retry-after', String(outcome.locked)).page('sign-in.eta', page)
      }
      return reply.status(401).page('sign-in.eta', { failed: 'password', email })
    })
    app.post('/console/sign-out', { config: { consoleAccess: 'step' }, schema: { hide: true } }, async (request, reply) => {
      await endSession(ctx.db, request.cookies[SESSION_COOKIE])
      reply.clearCookie(SESSION_COOKIE, { path: '/console' })
      return reply.redirect('/console/sign-in', 303)
    })
  }
}
