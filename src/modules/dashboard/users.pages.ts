import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { AppError } from '../../errors.js'
import { RowId, StringEnum } from '../../http/schemas.js'
import { ownerOnly } from './roles.js'
import { inviteUrl } from './users-admin.routes.js'
import { ROLES, inviteUser, listUsers, removeUser } from './users.service.js'
import { Form } from '../../http/web-pages.js'
import { fieldRefusals, sendBack } from './refusals.js'
import { TEXTS } from './texts.js'

const hide = true
const InviteForm = Form({ email: Type.String({ maxLength: 191 }), role: StringEnum(ROLES) })
const UserParam = Type.Object({ id: RowId() })

/** The account's users (owner only): invite (the link shown once), remove (signed out everywhere). */
export function userPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.addHook('preHandler', ownerOnly)
    app.get(
      '/dashboard/users',
      { schema: { hide, querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }) } },
      async (request, reply) =>
        reply.screen('users.eta', { users: await listUsers(db, request.dashboardUser.account_id), done: request.query.done }),
    )
    app.post('/dashboard/users', { schema: { hide, body: InviteForm } }, async (request, reply) => {
      const accountId = request.dashboardUser.account_id
      let invited
      try {
        invited = await inviteUser(db, accountId, { email: request.body.email, role: request.body.role })
      } catch (error) {
        const errors = fieldRefusals(error, TEXTS[request.dashboardLang])
        const values = { email: request.body.email, role: request.body.role }
        return sendBack(reply, 'users.eta', { users: await listUsers(db, accountId) }, { values, errors })
      }
      return reply.screen('users.eta', {
        users: await listUsers(db, accountId),
        invited: { email: invited.email, url: inviteUrl(ctx.config.publicUrl, invited.token) },
      })
    })
    app.post('/dashboard/users/:id/remove', { schema: { hide, params: UserParam } }, async (request, reply) => {
      const { account_id, user_id } = request.dashboardUser
      // Removing oneself would lock the account out of its own settings: another owner or the operator does it.
      if (request.params.id === user_id) throw new AppError('INVALID_STATE', { detail: 'you cannot remove yourself' })
      await removeUser(db, account_id, request.params.id)
      return reply.redirect('/dashboard/users?done=removed', 303)
    })
  }
}
