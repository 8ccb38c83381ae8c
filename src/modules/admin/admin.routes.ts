import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok, paginate } from '../../http/envelope.js'
import { ADMIN_ERRORS, IdParam, Ok, OkPage, PageNumber, errors } from '../../http/schemas.js'
import { adjustBalance, createAccount, getAccount, listAccounts, rotateApiKey, updateAccount } from '../accounts/index.js'
import { addLicenses, createItem, createProvider, getAdminItem, listProviders, updateItem, updateProvider } from '../catalog/index.js'
import * as S from './admin.schemas.js'

const tags = ['operator']
const security = [{ adminToken: [] }]

/** The operator API of DESIGN §11 (accounts, balance, items, licenses, providers). */
export function adminRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db, vault } = ctx
  // This process forgets a changed account at once; others hear it through NOTIFY.
  const forgetting = async <T>(accountId: number, change: Promise<T>) => {
    const result = await change
    ctx.authCache.forgetAccount(accountId)
    return result
  }
  // Likewise the catalog snapshot: the next listing here is taken after the edit.
  const edited = <T>(result: T) => {
    ctx.catalog.invalidate()
    return result
  }
  return async (app) => {
    app.post(
      '/resellers',
      {
        schema: {
          tags,
          security,
          summary: 'Create a reseller account and its first API key',
          body: S.CreateAccountBody,
          response: { 200: S.CreatedAccount, ...errors(422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => ok(await createAccount(db, request.body)),
    )
    app.get(
      '/resellers',
      {
        schema: {
          tags,
          security,
          summary: 'List reseller accounts (search by name, email or id)',
          querystring: Type.Object({
            page: Type.Optional(PageNumber),
            per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
            search: Type.Optional(Type.String({ minLength: 1, maxLength: 191, description: 'in name or email, or the id' })),
          }),
          response: { 200: OkPage(S.Account), ...errors(422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => {
        const { page = 1, per_page = 50, search } = request.query
        const { rows, total } = await listAccounts(db, { page, perPage: per_page, search })
        return ok(rows, paginate({ page, per_page }, total))
      },
    )
    app.get(
      '/resellers/:id',
      {
        schema: {
          tags,
          security,
          summary: 'One reseller account',
          params: IdParam,
          response: { 200: Ok(S.Account), ...errors(404, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => ok(await getAccount(db, request.params.id)),
    )
    app.patch(
      '/resellers/:id',
      {
        schema: {
          tags,
          security,
          summary: 'Suspend/reactivate, set the lock cap or the IP allow-list',
          params: IdParam,
          body: S.AccountChangesBody,
          response: { 200: Ok(S.Account), ...errors(404, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => ok(await forgetting(request.params.id, updateAccount(db, request.params.id, request.body))),
    )
    app.post(
      '/resellers/:id/api-keys',
      {
        schema: {
          tags,
          security,
          summary: 'Rotate the API key (the old one stops working at once)',
          params: IdParam,
          response: { 200: S.RotatedKey, ...errors(404, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => ok(await forgetting(request.params.id, rotateApiKey(db, request.params.id))),
    )
    app.post(
      '/resellers/:id/balance',
      {
        schema: {
          tags,
          security,
          summary: 'Credit or debit a balance (idempotent by reference)',
          params: IdParam,
          body: S.AdjustmentBody,
          response: { 200: S.Adjustment, ...errors(400, 404, 409, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => ok(await adjustBalance(db, request.params.id, request.body)),
    )

    app.post(
      '/items',
      {
        schema: {
          tags,
          security,
          summary: 'Create an item (a variant)',
          body: S.CreateItemBody,
          response: { 200: S.AdminItem, ...errors(422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => ok(edited(await createItem(db, request.body))),
    )
    app.get(
      '/items/:id',
      {
        schema: {
          tags,
          security,
          summary: 'One item, active or not',
          params: IdParam,
          response: { 200: S.AdminItem, ...errors(404, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => ok(await getAdminItem(db, request.params.id)),
    )
    app.patch(
      '/items/:id',
      {
        schema: {
          tags,
          security,
          summary: 'Change price, stock, activity or provider mapping',
          params: IdParam,
          body: S.ItemChangesBody,
          response: { 200: S.AdminItem, ...errors(404, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => ok(edited(await updateItem(db, request.params.id, request.body))),
    )
    // Stock arrives in bulk: this one route takes up to 8 MiB.
    app.post(
      '/items/:id/licenses',
      {
        bodyLimit: 8 * 1024 * 1024,
        schema: {
          tags,
          security,
          summary: 'Add auto stock; duplicates are skipped and counted',
          params: IdParam,
          body: S.LicensesBody,
          response: { 200: S.LicensesAdded, ...errors(404, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => ok(edited(await addLicenses(db, vault, request.params.id, request.body.licenses))),
    )

    app.post(
      '/providers',
      {
        schema: {
          tags,
          security,
          summary: 'Register an upstream provider',
          body: S.ProviderBody,
          response: { 200: Ok(S.Provider), ...errors(409, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => ok(await createProvider(db, vault, request.body)),
    )
    app.get(
      '/providers',
      { schema: { tags, security, summary: 'List providers', response: { 200: Ok(Type.Array(S.Provider)), ...errors(...ADMIN_ERRORS) } } },
      async () => ok(await listProviders(db)),
    )
    app.patch(
      '/providers/:code',
      {
        schema: {
          tags,
          security,
          summary: 'Change a provider; active=false makes its items unavailable',
          params: S.CodeParam,
          body: S.ProviderChangesBody,
          response: { 200: Ok(S.Provider), ...errors(404, 422, ...ADMIN_ERRORS) },
        },
      },
      async (request) => ok(edited(await updateProvider(db, vault, request.params.code, request.body))),
    )
  }
}
