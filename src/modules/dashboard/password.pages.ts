import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.js'
import { sha256Hex } from '../../vault.js'
import { SESSION_COOKIE } from './auth.routes.js'
import { changePassword } from './users.service.js'
import { twoStepOf } from './two-step.service.js'
import { Form } from '../../http/web-pages.js'
import { fieldRefusals, sendBack } from './refusals.js'
import { TEXTS } from './texts.js'

const hide = true
const PasswordForm = Form({
  current_password: Type.String({ maxLength: 500 }),
  password: Type.String({ maxLength: 500 }),
  password_again: Type.String({ maxLength: 500 }),
})

/**
 * The personal settings: any user's own password (the current one, then the new one twice; other
 * sessions end) and, for an owner, two-step verification (two-step.pages.ts acts on it).
 */
export function passwordPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const twoStep = (request: FastifyRequest) =>
    request.dashboardUser.role === 'owner' ? twoStepOf(ctx.db, request.dashboardUser.user_id) : undefined
  return async (app) => {
    app.get(
      '/dashboard/password',
      { schema: { hide, querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }) } },
      async (request, reply) => reply.screen('password.eta', { done: request.query.done, twoStep: await twoStep(request) }),
    )
    app.post('/dashboard/password', { schema: { hide, body: PasswordForm } }, async (request, reply) => {
      const { current_password, password, password_again } = request.body
      try {
        await changePassword(ctx.db, request.dashboardUser.user_id, sha256Hex(request.cookies[SESSION_COOKIE] ?? ''), {
          current: current_password,
          password,
          repeated: password_again,
        })
      } catch (error) {
        // Passwords are never written back into the page: the fields come back empty, each with its sentence.
        const errors = fieldRefusals(error, TEXTS[request.dashboardLang])
        return sendBack(reply, 'password.eta', { twoStep: await twoStep(request) }, { values: {}, errors })
      }
      return reply.redirect('/dashboard/password?done=changed', 303)
    })
  }
}
