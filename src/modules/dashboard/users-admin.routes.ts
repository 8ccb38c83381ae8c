import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { IdParam, Ok, RowId, StringEnum, Timestamp, Nullable } from '../../http/schemas.js'
import { ROLES, inviteUser, listUsers, removeUser } from './users.service.js'
import { resetUserSecondFactor } from './two-step.service.js'
import { DASHBOARD_USER_ADMIN_DOCS } from './users-admin.openapi.js'

const tags = ['operator']

const User = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: StringEnum(ROLES),
  status: StringEnum(['invited', 'active']),
  second_factor: Type.Boolean({ description: 'two-step verification is on for their sign-in (owners may turn it on)' }),
  invite_expires_at: Nullable(Timestamp),
  created_at: Timestamp,
})
const InviteBody = Type.Object({
  email: Type.String({ format: 'email', minLength: 3, maxLength: 191, description: 'the person’s email: what they sign in with' }),
  role: StringEnum(ROLES, { description: '`owner` manages keys, the allow-list, webhooks and users; `staff` sees money and orders' }),
})
const Invited = Ok(
  Type.Object({
    id: Type.Integer(),
    email: Type.String(),
    role: StringEnum(ROLES),
    invite_url: Type.String({ description: 'opens the page that sets the password; works once, for 72 hours' }),
    invite_expires_at: Timestamp,
  }),
)

/** The link a person opens to set a password; the token is shown only in this answer. */
export const inviteUrl = (publicUrl: string, token: string) => `${publicUrl}/dashboard/invite/${token}`

/** An operator's side of the dashboard's users (docs/design.md §13): invite, list, remove, reset a second factor. */
export function dashboardUserAdminRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.post(
      '/resellers/:id/users',
      {
        schema: {
          tags,
          summary: 'Invite a person to the account’s dashboard (the invite link is shown once)',
          params: IdParam,
          body: InviteBody,
          ...operation('operator', DASHBOARD_USER_ADMIN_DOCS.adminInviteDashboardUser, { 200: Invited }),
        },
      },
      async (request) => {
        const user = await inviteUser(db, request.params.id, request.body)
        const { id, email, role, invite_expires_at } = user
        return ok({ id, email, role, invite_url: inviteUrl(ctx.config.publicUrl, user.token), invite_expires_at: invite_expires_at! })
      },
    )
    app.get(
      '/resellers/:id/users',
      {
        schema: {
          tags,
          summary: 'The account’s dashboard users',
          params: IdParam,
          ...operation('operator', DASHBOARD_USER_ADMIN_DOCS.adminListDashboardUsers, { 200: Ok(Type.Array(User)) }),
        },
      },
      async (request) => ok(await listUsers(db, request.params.id)),
    )
    app.delete(
      '/resellers/:id/users/:user',
      {
        schema: {
          tags,
          summary: 'Remove a dashboard user: signed out everywhere at once',
          params: Type.Object({ id: RowId(), user: RowId() }),
          ...operation('operator', DASHBOARD_USER_ADMIN_DOCS.adminRemoveDashboardUser, {
            200: Ok(Type.Object({ id: Type.Integer(), removed: Type.Literal(true) })),
          }),
        },
      },
      async (request) => {
        await removeUser(db, request.params.id, request.params.user)
        return ok({ id: request.params.user, removed: true as const })
      },
    )
    app.post(
      '/resellers/:id/users/:user/second-factor/reset',
      {
        schema: {
          tags,
          summary: 'Reset a dashboard user’s two-step verification (a lost phone): signed out everywhere, password alone next time',
          params: Type.Object({ id: RowId(), user: RowId() }),
          ...operation('operator', DASHBOARD_USER_ADMIN_DOCS.adminResetDashboardUserSecondFactor, {
            200: Ok(Type.Object({ id: Type.Integer(), email: Type.String(), second_factor: Type.Literal(false) })),
          }),
        },
      },
      async (request) => ok(await resetUserSecondFactor(db, request.params.id, request.params.user)),
    )
  }
}
