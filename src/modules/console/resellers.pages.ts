import { pageWindow } from '../../http/paging.js'
import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { IdParam, PageNumber, RowId, StringEnum } from '../../http/schemas.js'
import * as accounts from '../accounts/index.js'
import * as ledger from '../ledger/index.js'
import { listOperatorOrders } from '../orders/index.js'
import { accountDeliveries, accountWebhook, redeliverForAccount } from '../webhooks/index.js'
import { listUsers } from '../dashboard/index.js'
import { listPriceLevels } from '../price-levels/index.js'
import { Form, Optional, Text, blankToUndefined, noticeOf, typedList, wholeNumber } from './form.js'

const hide = true
const ListQuery = Type.Object({ search: Optional(Type.String({ maxLength: 191 })), page: Optional(PageNumber) })
const Done = Type.Object({ done: Optional(Type.String({ maxLength: 20 })) })

/** Resellers: list and search, create (key shown once), balance, key rotation, status, limits, orders, ledger, webhooks. */
export function resellerPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  // A change of keys, status, limits or level: this process forgets the account at once.
  const changed = <T>(id: number, change: Promise<T>) => accounts.forgettingAccount(ctx, id, change)
  const back = (id: number, done: string) => `/console/resellers/${id}?done=${done}`
  return async (app) => {
    app.get(
      '/console/resellers',
      { config: { operationId: 'adminListResellers' }, schema: { hide, querystring: ListQuery } },
      async (request, reply) => {
        const { search, page = 1 } = request.query
        const { rows, total } = await accounts.listAccounts(request.readDb, { page, perPage: 50, search: blankToUndefined(search) })
        return reply.page('resellers.eta', { rows, total, page, search: search ?? '' })
      },
    )
    app.post(
      '/console/resellers',
      { config: { operationId: 'adminCreateReseller' }, schema: { hide, body: Form({ name: Text(191), email: Optional(Text(191)) }) } },
      async (request, reply) => {
        const created = await accounts.createAccount(db, { name: request.body.name, email: blankToUndefined(request.body.email) })
        return reply.page('api-key.eta', { account: created, apiKey: created.api_key, created: true })
      },
    )
    app.get(
      '/console/resellers/:id',
      { config: { operationId: 'adminGetReseller' }, schema: { hide, params: IdParam, querystring: Done } },
      async (request, reply) => {
        const id = request.params.id
        const account = await accounts.getAccount(db, id)
        const [orders, mutations, webhook, deliveries, users, levels] = await Promise.all([
          listOperatorOrders(db, { accountId: id }, pageWindow({ page: 1, per_page: 20 })),
          ledger.listMutations(db, id, {}, pageWindow({ page: 1, per_page: 20 })),
          accountWebhook(db, id),
          accountDeliveries(db, id, { window: pageWindow({ page: 1, per_page: 20 }) }),
          listUsers(db, id),
          listPriceLevels(db),
        ])
        const page = { account, orders, mutations, webhook, deliveries, users, levels }
        return reply.page('reseller.eta', { ...page, notice: noticeOf(request.query) })
      },
    )
    app.post(
      '/console/resellers/:id/balance',
      {
        config: { operationId: 'adminAdjustBalance' },
        schema: { hide, params: IdParam, body: Form({ amount: Text(20), reason: Text(255), reference: Optional(Text(191)) }) },
      },
      async (request, reply) => {
        const { amount, reason, reference } = request.body
        await accounts.adjustBalance(db, request.params.id, {
          amount: wholeNumber('amount', amount) ?? 0,
          reason,
          reference: blankToUndefined(reference),
        })
        return reply.redirect(back(request.params.id, 'credited'), 303)
      },
    )
    app.post(
      '/console/resellers/:id/api-key',
      { config: { operationId: 'adminRotateApiKey' }, schema: { hide, params: IdParam } },
      async (request, reply) => {
        const rotated = await changed(request.params.id, accounts.rotateApiKey(db, request.params.id))
        return reply.page('api-key.eta', { account: await accounts.getAccount(db, request.params.id), apiKey: rotated.api_key })
      },
    )
    app.post(
      '/console/resellers/:id/status',
      {
        config: { operationId: 'adminUpdateReseller' },
        schema: { hide, params: IdParam, body: Form({ status: StringEnum(['active', 'suspended']) }) },
      },
      async (request, reply) => {
        await changed(request.params.id, accounts.updateAccount(db, request.params.id, { status: request.body.status }))
        return reply.redirect(back(request.params.id, 'status'), 303)
      },
    )
    app.post(
      '/console/resellers/:id/limits',
      {
        config: { operationId: 'adminUpdateReseller' },
        schema: { hide, params: IdParam, body: Form({ max_active_locks: Text(10), ip_allowlist: Text(10_000) }) },
      },
      async (request, reply) => {
        const cap = wholeNumber('max_active_locks', request.body.max_active_locks)
        const changes = { max_active_locks: cap ?? null, ip_allowlist: typedList(request.body.ip_allowlist) }
        await changed(request.params.id, accounts.updateAccount(db, request.params.id, changes))
        return reply.redirect(back(request.params.id, 'limits'), 303)
      },
    )
    // Its price level (docs/design.md §5d): its next request pays that level's prices.
    app.post(
      '/console/resellers/:id/level',
      {
        config: { operationId: 'adminUpdateReseller' },
        schema: { hide, params: IdParam, body: Form({ price_level: Text(64) }) },
      },
      async (request, reply) => {
        await changed(request.params.id, accounts.updateAccount(db, request.params.id, { price_level: request.body.price_level }))
        return reply.redirect(back(request.params.id, 'price-level'), 303)
      },
    )
    app.post(
      '/console/resellers/:id/deliveries/:delivery/retry',
      {
        config: { operationId: 'adminRetryWebhookDelivery' },
        schema: {
          hide,
          params: Type.Object({ id: RowId(), delivery: RowId() }),
          body: Form({ back: Optional(StringEnum(['reseller', 'account', 'store'])) }),
        },
      },
      async (request, reply) => {
        const { id, delivery } = request.params
        await redeliverForAccount(db, id, delivery)
        // Back to the page the button was on: the reseller, its deliveries, or the store's failing ones.
        const to = {
          reseller: `${back(id, 'redelivered')}#webhook`,
          account: `/console/resellers/${id}/deliveries?done=redelivered`,
          store: '/console/webhook-deliveries?done=redelivered',
        }[request.body.back ?? 'reseller']
        return reply.redirect(to, 303)
      },
    )
  }
}
