import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { forgettingAccount, getAccount, rotateApiKey, updateAccount } from '../accounts/index.js'
import { ownerOnly } from './roles.js'
import { Form, typedList } from '../../http/web-pages.js'
import { fieldRefusals, sendBack } from './refusals.js'
import { TEXTS } from './texts.js'

const hide = true
const AllowListBody = Form({
  ip_allowlist: Type.String({ maxLength: 10_000 }),
  add_mine: Type.Optional(Type.String({ maxLength: 10 })),
})

/** The API key (rotate: shown once, the old one revoked at once) and the IP allow-list: the owner's, through the operator's services. */
export function accessPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.addHook('preHandler', ownerOnly)
    app.get('/dashboard/api-key', { schema: { hide } }, async (_request, reply) => reply.screen('api-key.eta'))
    app.post('/dashboard/api-key', { schema: { hide } }, async (request, reply) => {
      const accountId = request.dashboardUser.account_id
      const rotated = await forgettingAccount(ctx, accountId, rotateApiKey(db, accountId))
      return reply.screen('api-key.eta', { apiKey: rotated.api_key })
    })
    app.get(
      '/dashboard/allow-list',
      { schema: { hide, querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }) } },
      async (request, reply) => {
        const account = await getAccount(db, request.dashboardUser.account_id)
        return reply.screen('allow-list.eta', { entries: account.ip_allowlist, mine: request.ip, saved: request.query.done === 'saved' })
      },
    )
    app.post('/dashboard/allow-list', { schema: { hide, body: AllowListBody } }, async (request, reply) => {
      const accountId = request.dashboardUser.account_id
      const entries = typedList(request.body.ip_allowlist)
      if (request.body.add_mine && !entries.includes(request.ip)) entries.push(request.ip)
      try {
        await forgettingAccount(ctx, accountId, updateAccount(db, accountId, { ip_allowlist: entries }))
      } catch (error) {
        const errors = fieldRefusals(error, TEXTS[request.dashboardLang], { entries })
        const values = { ip_allowlist: request.body.ip_allowlist, add_mine: request.body.add_mine ?? '' }
        const account = await getAccount(db, accountId)
        return sendBack(reply, 'allow-list.eta', { entries: account.ip_allowlist, mine: request.ip }, { values, errors })
      }
      return reply.redirect('/dashboard/allow-list?done=saved', 303)
    })
  }
}
