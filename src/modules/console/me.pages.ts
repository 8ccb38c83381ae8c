import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.js'
import { AppError } from '../../errors.js'
import { IdParam } from '../../http/schemas.js'
import {
  checkOperatorCode,
  createMyToken,
  myTokens,
  requiresSecondFactor,
  resetSecondFactor,
  revokeMyToken,
  SIGN_IN_LOCK_MINUTES,
} from '../team/index.js'
import { countFailedAuthentication } from '../../http/auth.js'
import { Form, Optional, Text } from './form.js'
import { advanceSession } from './sessions.service.js'

const hide = true

/** The signed-in operator; the admin token is nobody's account (no tokens, no second factor of its own). */
function operatorOf(request: FastifyRequest) {
  const operator = request.consoleSession?.operator
  if (!operator) {
    throw new AppError('INVALID_STATE', { detail: 'the admin token has no tokens or second factor of its own: sign in as an operator' })
  }
  return operator
}

/**
 * Every operator's own page: their `op_` tokens for the admin API (a new one shown once; revoke),
 * and their second factor (set it up, or move it to a new phone with a code from the old one).
 */
export function mePages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db, vault } = ctx
  const mePage = async (request: FastifyRequest, reply: FastifyReply, extra: Record<string, unknown> = {}) => {
    const operator = request.consoleSession?.operator
    const tokens = operator ? await myTokens(db, request.operator) : []
    return reply.page('me.eta', { operator, tokens, lockMinutes: SIGN_IN_LOCK_MINUTES, ...extra })
  }
  return async (app) => {
    app.get('/console/me', { config: { operationId: 'adminMe' }, schema: { hide } }, (request, reply) => mePage(request, reply))
    app.post(
      '/console/me/tokens',
      { config: { operationId: 'adminCreateMyToken' }, schema: { hide, body: Form({ name: Text(100) }) } },
      async (request, reply) => {
        operatorOf(request)
        const created = await createMyToken(db, request.operator, request.body.name)
        return mePage(request, reply, { created: { name: created.name, token: created.token } })
      },
    )
    app.post(
      '/console/me/tokens/:id/revoke',
      { config: { operationId: 'adminRevokeMyToken' }, schema: { hide, params: IdParam } },
      async (request, reply) => {
        operatorOf(request)
        await revokeMyToken(db, request.operator, request.params.id)
        return reply.redirect('/console/me?done=token-revoked#tokens', 303)
      },
    )
    // A new phone: a code from the current one (or a recovery code) first, so a session left open cannot move the factor.
    app.post(
      '/console/me/second-factor',
      { config: { operationId: 'consoleResetMySecondFactor' }, schema: { hide, body: Form({ code: Optional(Text(100)) }) } },
      async (request, reply) => {
        const operator = operatorOf(request)
        if (operator.hasSecondFactor) {
          const outcome = await checkOperatorCode(db, vault, operator, request.ip, request.body.code ?? '', ctx.clock.now())
          if (outcome !== 'ok') {
            const tooMany = await countFailedAuthentication(ctx, request)
            if (tooMany) throw tooMany
            return mePage(request, reply.status(outcome ? 429 : 422), { failed: outcome ? 'locked' : 'code' })
          }
          await resetSecondFactor(db, 'operators', operator.id)
        }
        // A role that needs a second factor reaches nothing else until the new one is set up.
        if (requiresSecondFactor(operator.role))
          await advanceSession(db, request.consoleSession!, ['signed_in'], 'enrol', ctx.config.consoleSessionHours)
        return reply.redirect('/console/enrol', 303)
      },
    )
  }
}
