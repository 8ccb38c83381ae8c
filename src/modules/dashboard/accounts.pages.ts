import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { AppError } from '../../errors.js'
import { SESSION_COOKIE } from './auth.routes.js'
import { sessionAccounts, switchAccount } from './sessions.service.js'
import { Form } from '../../http/web-pages.js'

const hide = true
const ChooseForm = Form({ user_id: Type.String({ pattern: '^[0-9]{1,15}$' }) })

/** The account chooser: a password that opened several accounts of the email's picks which one to look at. */
export function accountPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/dashboard/accounts', { schema: { hide } }, async (request, reply) =>
      reply.screen('accounts.eta', { accounts: await sessionAccounts(ctx.db, request.cookies[SESSION_COOKIE]) }),
    )
    app.post('/dashboard/accounts', { schema: { hide, body: ChooseForm } }, async (request, reply) => {
      if (!(await switchAccount(ctx.db, request.cookies[SESSION_COOKIE], Number(request.body.user_id))))
        throw new AppError('USER_NOT_FOUND')
      return reply.redirect('/dashboard', 303)
    })
  }
}
