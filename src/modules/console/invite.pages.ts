import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { invalidField } from '../../errors.js'
import { acceptInvitation, createFirstOwner, findInvitation, hasOperators, requiresSecondFactor } from '../team/index.js'
import { Form, Text, emailField, newPassword } from './form.js'
import { formRefusal } from './refusals.js'
import { endSession, SESSION_COOKIE } from './sessions.service.js'

const hide = true
const TokenParam = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) })
const PasswordFields = { password: Text(500), password_again: Text(500) }
const firstOwner = { operationId: 'consoleCreateFirstOwner' }
const invitePage = (invite: Awaited<ReturnType<typeof findInvitation>>, token: string) => ({
  invite: invite && { email: invite.email, name: invite.name, role: invite.role },
  needsSecondFactor: invite !== undefined && requiresSecondFactor(invite.role),
  token,
})

// An invitation's form also shows under its fields why it cannot be taken now (INVALID_STATE naming a field).
const INVITE_REFUSALS = ['VALIDATION_ERROR', 'DUPLICATE', 'INVALID_STATE']

/**
 * How a person becomes an operator: the invitation link (public: name and password, then they sign
 * in and enrol what their role needs), and the first owner, made with the admin token while the
 * store has no operator at all.
 */
export function invitePages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get(
      '/console/invite/:token',
      { config: { consoleAccess: 'open' }, schema: { hide, params: TokenParam } },
      async (request, reply) => {
        const invite = await findInvitation(db, request.params.token)
        return reply.status(invite ? 200 : 404).page('invite.eta', invitePage(invite, request.params.token))
      },
    )
    app.post(
      '/console/invite/:token',
      { config: { consoleAccess: 'open' }, schema: { hide, params: TokenParam, body: Form({ name: Text(191), ...PasswordFields }) } },
      async (request, reply) => {
        const { token } = request.params
        const { name, password, password_again } = request.body
        try {
          await acceptInvitation(db, token, { name, password: newPassword(password, password_again) })
        } catch (error) {
          const refused = formRefusal(error, request.consoleLang, INVITE_REFUSALS)
          if (!refused) throw error
          return reply
            .status(refused.status)
            .page('invite.eta', { ...invitePage(await findInvitation(db, token), token), fields: refused.fields, name })
        }
        return reply.redirect('/console/sign-in?done=invited', 303)
      },
    )

    app.get('/console/first-owner', { config: firstOwner, schema: { hide } }, async (_request, reply) => {
      if (await hasOperators(db)) return reply.redirect('/console/team', 303)
      return reply.page('first-owner.eta', {})
    })
    // The admin token's session ends with it: the owner signs in with their own email and sets up their second factor.
    app.post(
      '/console/first-owner',
      { config: firstOwner, schema: { hide, body: Form({ email: Text(191), name: Text(191), ...PasswordFields }) } },
      async (request, reply) => {
        const { email, name, password, password_again } = request.body
        try {
          if (!name.trim()) throw invalidField('name', 'must not be blank: how the team sees this person')
          await createFirstOwner(db, { email: emailField('email', email), name, password: newPassword(password, password_again) })
        } catch (error) {
          const refused = formRefusal(error, request.consoleLang, INVITE_REFUSALS)
          if (!refused) throw error
          return reply.status(refused.status).page('first-owner.eta', { fields: refused.fields, email, name })
        }
        await endSession(db, request.cookies[SESSION_COOKIE])
        reply.clearCookie(SESSION_COOKIE, { path: '/console' })
        return reply.redirect('/console/sign-in?done=owner', 303)
      },
    )
  }
}
