import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { IdParam, RowId, StringEnum } from '../../http/schemas.js'
import {
  getOperator,
  inviteOperator,
  listOperators,
  operatorInviteUrl,
  removeOperator,
  resetOperatorSecondFactor,
  revokeTokenOfOperator,
  ROLES,
  tokensOfOperator,
  updateOperator,
} from '../team/index.js'
import { Form, Optional, Text, emailField, noticeOf } from './form.js'
import { formRefusal } from './refusals.js'

const hide = true
const Done = Type.Object({ done: Optional(Type.String({ maxLength: 20 })) })
const InviteForm = Form({ email: Text(191), name: Text(191), role: StringEnum(ROLES) })
const TokenParams = Type.Object({ id: RowId(), token: RowId() })

/**
 * The team (docs/design.md §11d): who runs the store, their roles and second factors; owners
 * invite (the one-time link shown here once), change roles, remove, reset a lost second factor
 * and revoke anyone's tokens. Admins see it; each change is the operation of its admin API twin.
 */
export function teamPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  const teamPage = async (extra: Record<string, unknown> = {}) => ({ operators: await listOperators(db), roles: ROLES, ...extra })
  return async (app) => {
    app.get(
      '/console/team',
      { config: { operationId: 'adminListOperators' }, schema: { hide, querystring: Done } },
      async (request, reply) => reply.page('team.eta', await teamPage({ notice: noticeOf(request.query) })),
    )
    app.post(
      '/console/team/invite',
      { config: { operationId: 'adminInviteOperator' }, schema: { hide, body: InviteForm } },
      async (request, reply) => {
        const { email, name, role } = request.body
        try {
          const { operator, inviteToken } = await inviteOperator(db, { email: emailField('email', email), name, role })
          return reply.page('team-invite.eta', { operator, url: operatorInviteUrl(ctx.config.publicUrl, inviteToken) })
        } catch (error) {
          // The form again with the typed values, the reason under its field (an active operator's email, a typo).
          const refused = formRefusal(error, request.consoleLang)
          if (!refused) throw error
          return reply.status(refused.status).page('team.eta', await teamPage({ fields: refused.fields, typed: { email, name, role } }))
        }
      },
    )
    app.get(
      '/console/team/:id',
      { config: { operationId: 'adminListOperatorTokens' }, schema: { hide, params: IdParam, querystring: Done } },
      async (request, reply) => {
        const [operator, tokens] = await Promise.all([getOperator(db, request.params.id), tokensOfOperator(db, request.params.id)])
        return reply.page('operator.eta', { operator, tokens, roles: ROLES, notice: noticeOf(request.query) })
      },
    )
    app.post(
      '/console/team/:id',
      {
        config: { operationId: 'adminUpdateOperator' },
        schema: { hide, params: IdParam, body: Form({ name: Optional(Text(191)), role: StringEnum(ROLES) }) },
      },
      async (request, reply) => {
        const name = request.body.name?.trim() || undefined
        const before = await getOperator(db, request.params.id)
        await updateOperator(db, request.params.id, { name, role: request.body.role })
        const done = before.role === request.body.role ? 'operator' : 'role-changed'
        return reply.redirect(`/console/team/${request.params.id}?done=${done}`, 303)
      },
    )
    app.post(
      '/console/team/:id/remove',
      { config: { operationId: 'adminRemoveOperator' }, schema: { hide, params: IdParam } },
      async (request, reply) => {
        await removeOperator(db, request.params.id)
        return reply.redirect('/console/team?done=operator-removed', 303)
      },
    )
    app.post(
      '/console/team/:id/reset-second-factor',
      { config: { operationId: 'adminResetOperatorSecondFactor' }, schema: { hide, params: IdParam } },
      async (request, reply) => {
        await resetOperatorSecondFactor(db, request.params.id)
        return reply.redirect(`/console/team/${request.params.id}?done=factor-reset`, 303)
      },
    )
    app.post(
      '/console/team/:id/tokens/:token/revoke',
      { config: { operationId: 'adminRevokeOperatorToken' }, schema: { hide, params: TokenParams } },
      async (request, reply) => {
        await revokeTokenOfOperator(db, request.params.id, request.params.token)
        return reply.redirect(`/console/team/${request.params.id}?done=token-revoked#tokens`, 303)
      },
    )
  }
}
