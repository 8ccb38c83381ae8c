import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { IdParam, Ok } from '../../http/schemas.js'
import { inviteOperator, listOperators, removeOperator, resetOperatorSecondFactor, updateOperator } from './operators.service.js'
import { createMyToken, myTokens, revokeMyToken, whoAmI } from './self.service.js'
import { revokeTokenOfOperator, tokensOfOperator } from './tokens.service.js'
import { TEAM_DOCS } from './team.openapi.js'
import * as S from './team.schemas.js'

const tags = ['operator']

/** The console page an invitation link opens; the token is shown only in the invite's answer. */
export const operatorInviteUrl = (publicUrl: string, token: string) => `${publicUrl}/console/invite/${token}`

/** docs/design.md §11d: the team (owners write, admins read) and each caller's own identity and tokens. */
export function teamRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get(
      '/operators',
      {
        schema: {
          tags,
          summary: 'The operators: people, roles, second factors',
          ...operation('operator', TEAM_DOCS.adminListOperators, { 200: Ok(Type.Array(S.Operator)) }),
        },
      },
      async () => ok(await listOperators(db)),
    )
    app.post(
      '/operators',
      {
        schema: {
          tags,
          summary: 'Invite a person with a role (the invite link is shown once)',
          body: S.InviteBody,
          ...operation('operator', TEAM_DOCS.adminInviteOperator, { 200: Ok(S.Invited) }),
        },
      },
      async (request) => {
        const { operator, inviteToken } = await inviteOperator(db, request.body)
        return ok({ ...operator, invite_url: operatorInviteUrl(ctx.config.publicUrl, inviteToken) })
      },
    )
    app.patch(
      '/operators/:id',
      {
        schema: {
          tags,
          summary: 'Rename a person or change their role',
          params: IdParam,
          body: S.UpdateBody,
          ...operation('operator', TEAM_DOCS.adminUpdateOperator, { 200: Ok(S.Operator) }),
        },
      },
      async (request) => ok(await updateOperator(db, request.params.id, request.body)),
    )
    app.delete(
      '/operators/:id',
      {
        schema: {
          tags,
          summary: 'Remove a person: signed out and every token revoked at once',
          params: IdParam,
          ...operation('operator', TEAM_DOCS.adminRemoveOperator, { 200: Ok(S.Operator) }),
        },
      },
      async (request) => ok(await removeOperator(db, request.params.id)),
    )
    app.post(
      '/operators/:id/second-factor/reset',
      {
        schema: {
          tags,
          summary: 'Reset a person’s second factor (a lost phone)',
          params: IdParam,
          ...operation('operator', TEAM_DOCS.adminResetOperatorSecondFactor, { 200: Ok(S.Operator) }),
        },
      },
      async (request) => ok(await resetOperatorSecondFactor(db, request.params.id)),
    )
    app.get(
      '/operators/:id/tokens',
      {
        schema: {
          tags,
          summary: 'A person’s API tokens',
          params: IdParam,
          ...operation('operator', TEAM_DOCS.adminListOperatorTokens, { 200: Ok(Type.Array(S.Token)) }),
        },
      },
      async (request) => ok(await tokensOfOperator(db, request.params.id)),
    )
    app.delete(
      '/operators/:id/tokens/:token',
      {
        schema: {
          tags,
          summary: 'Revoke one of a person’s API tokens',
          params: S.OperatorTokenParams,
          ...operation('operator', TEAM_DOCS.adminRevokeOperatorToken, { 200: Ok(S.Token) }),
        },
      },
      async (request) => ok(await revokeTokenOfOperator(db, request.params.id, request.params.token)),
    )

    app.get(
      '/me',
      {
        schema: { tags, summary: 'Who the token acts as', ...operation('operator', TEAM_DOCS.adminMe, { 200: Ok(S.Me) }) },
      },
      async (request) => ok(await whoAmI(db, request.operator)),
    )
    app.get(
      '/me/tokens',
      {
        schema: {
          tags,
          summary: 'Your own API tokens',
          ...operation('operator', TEAM_DOCS.adminListMyTokens, { 200: Ok(Type.Array(S.Token)) }),
        },
      },
      async (request) => ok(await myTokens(db, request.operator)),
    )
    app.post(
      '/me/tokens',
      {
        schema: {
          tags,
          summary: 'Create an API token of your own (shown once)',
          body: S.CreateTokenBody,
          ...operation('operator', TEAM_DOCS.adminCreateMyToken, { 200: Ok(S.CreatedToken) }),
        },
      },
      async (request) => ok(await createMyToken(db, request.operator, request.body.name)),
    )
    app.delete(
      '/me/tokens/:token',
      {
        schema: {
          tags,
          summary: 'Revoke one of your own API tokens',
          params: S.TokenParam,
          ...operation('operator', TEAM_DOCS.adminRevokeMyToken, { 200: Ok(S.Token) }),
        },
      },
      async (request) => ok(await revokeMyToken(db, request.operator, request.params.token)),
    )
  }
}
