import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { IdParam, RowId, StringEnum } from '../../http/schemas.js'
import * as accounts from '../accounts/index.js'
import { inviteUrl, inviteUser, removeUser, ROLES } from '../dashboard/index.js'
import { Form, Text } from './form.js'

const hide = true

/** A reseller's dashboard users (docs/design.md §13): invite (the one-time link shown here once), remove (signed out everywhere). */
export function dashboardUserPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.post(
      '/console/resellers/:id/users',
      {
        config: { operationId: 'adminInviteDashboardUser' },
        schema: { hide, params: IdParam, body: Form({ email: Text(191), role: StringEnum(ROLES) }) },
      },
      async (request, reply) => {
        const invited = await inviteUser(db, request.params.id, { email: request.body.email, role: request.body.role })
        return reply.page('dashboard-invite.eta', {
          account: await accounts.getAccount(db, request.params.id),
          invited: { email: invited.email, role: invited.role, url: inviteUrl(ctx.config.publicUrl, invited.token) },
        })
      },
    )
    app.post(
      '/console/resellers/:id/users/:user/remove',
      { config: { operationId: 'adminRemoveDashboardUser' }, schema: { hide, params: Type.Object({ id: RowId(), user: RowId() }) } },
      async (request, reply) => {
        await removeUser(db, request.params.id, request.params.user)
        return reply.redirect(`/console/resellers/${request.params.id}?done=user-removed#dashboard-users`, 303)
      },
    )
  }
}
