import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import type { AppContext } from '../../context.js'
import { countFailedAuthentication } from '../../http/auth.js'
import { SIGN_IN_LOCK_MINUTES } from '../team/index.js'
import { endSession, pendingSignIn, SESSION_HOURS, sessionUser, startSession } from './sessions.service.js'
import { checkSignIn, checkSignInCode } from './sign-in.service.js'
import { acceptInvite, findInvite } from './users.service.js'
import { Form } from '../../http/web-pages.js'
import { fieldRefusals, sendBack } from './refusals.js'
import { TEXTS } from './texts.js'

export const SESSION_COOKIE = 'dashboard_session'
const hide = true
const SignInBody = Form({ email: Type.String({ maxLength: 191 }), password: Type.String({ maxLength: 500 }) })
const CodeBody = Form({ code: Type.String({ maxLength: 100 }) })
const InviteParam = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) })
const PasswordBody = Form({
  password: Type.String({ maxLength: 500 }),
  password_again: Type.String({ maxLength: 500 }),
})

// The password opened several accounts of the email's: the person chooses which to look at.
const landing = (userIds: number[]) => (userIds.length > 1 ? '/dashboard/accounts' : '/dashboard')

/**
 * Sign-in with email and password, then a code when two-step verification is on (the session opens
 * only the code page until then), sign-out, and the invite link that sets a password once.
 */
export function authRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const secure = ctx.config.appEnv === 'production'
  const signIn = async (reply: FastifyReply, userIds: number[]) => {
    const { token, needsCode } = await startSession(ctx.db, userIds)
    reply.setCookie(SESSION_COOKIE, token, { path: '/dashboard', httpOnly: true, sameSite: 'lax', secure, maxAge: SESSION_HOURS * 3600 })
    return reply.redirect(needsCode ? '/dashboard/sign-in/code' : landing(userIds), 303)
  }
  return async (app) => {
    app.get('/dashboard/sign-in', { schema: { hide } }, async (request, reply) => {
      if (await sessionUser(ctx.db, request.cookies[SESSION_COOKIE])) return reply.redirect('/dashboard', 303)
      return reply.screen('sign-in.eta')
    })
    app.post('/dashboard/sign-in', { schema: { hide, body: SignInBody } }, async (request, reply) => {
      const { email, password } = request.body
      const outcome = await checkSignIn(ctx.db, email, password)
      if (outcome && 'userIds' in outcome) return signIn(reply, outcome.userIds)
      // Every failure counts against the address's budget too, a locked email's included, like every
      // failed authentication (docs/design.md §4): known and unknown emails spend it alike.
      const tooMany = await countFailedAuthentication(ctx, request)
      if (tooMany) throw tooMany
      if (outcome) {
        return reply
          .status(429)
          .header('retry-after', String(outcome.locked))
          .screen('sign-in.eta', { locked: SIGN_IN_LOCK_MINUTES, email })
      }
      return reply.status(401).screen('sign-in.eta', { failed: true, email })
    })
    app.get('/dashboard/sign-in/code', { schema: { hide } }, async (request, reply) => {
      const proved = await pendingSignIn(ctx.db, request.cookies[SESSION_COOKIE])
      if (!proved) return reply.redirect('/dashboard/sign-in', 303)
      return reply.screen('sign-in-code.eta', { several: proved.length > 1 })
    })
    app.post('/dashboard/sign-in/code', { schema: { hide, body: CodeBody } }, async (request, reply) => {
      const outcome = await checkSignInCode(ctx.db, ctx.vault, request.cookies[SESSION_COOKIE], request.body.code, ctx.clock.now())
      // Not waiting for a code (lapsed, finished elsewhere, or never signed in): the password first.
      if (!outcome) return reply.redirect('/dashboard/sign-in', 303)
      if ('userIds' in outcome) return reply.redirect(landing(outcome.userIds), 303)
      // A wrong code is a failed sign-in: it spends the address's budget like a wrong password.
      const tooMany = await countFailedAuthentication(ctx, request)
      if (tooMany) throw tooMany
      const several = ((await pendingSignIn(ctx.db, request.cookies[SESSION_COOKIE])) ?? []).length > 1
      if ('locked' in outcome) {
        return reply
          .status(429)
          .header('retry-after', String(outcome.locked))
          .screen('sign-in-code.eta', { locked: SIGN_IN_LOCK_MINUTES, several })
      }
      return reply.status(401).screen('sign-in-code.eta', { wrong: true, several })
    })
    app.post('/dashboard/sign-out', { schema: { hide } }, async (request, reply) => {
      await endSession(ctx.db, request.cookies[SESSION_COOKIE])
      reply.clearCookie(SESSION_COOKIE, { path: '/dashboard' })
      return reply.redirect('/dashboard/sign-in', 303)
    })
    app.get('/dashboard/invite/:token', { schema: { hide, params: InviteParam } }, async (request, reply) =>
      reply.screen('invite.eta', { invite: await findInvite(ctx.db, request.params.token), token: request.params.token }),
    )
    app.post('/dashboard/invite/:token', { schema: { hide, params: InviteParam, body: PasswordBody } }, async (request, reply) => {
      const { token } = request.params
      try {
        return await signIn(reply, [await acceptInvite(ctx.db, token, request.body.password, request.body.password_again)])
      } catch (error) {
        // A password that does not qualify: the same form again, saying why next to the field.
        const errors = fieldRefusals(error, TEXTS[request.dashboardLang])
        return sendBack(reply, 'invite.eta', { invite: await findInvite(ctx.db, token), token }, { values: {}, errors })
      }
    })
  }
}
