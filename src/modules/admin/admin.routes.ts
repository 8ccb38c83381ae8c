import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok, paginate } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { IdParam, Ok, OkPage, PageNumber } from '../../http/schemas.js'
import {
  adjustBalance,
  createAccount,
  forgettingAccount,
  getAccount,
  listAccounts,
  rotateApiKey,
  updateAccount,
} from '../accounts/index.js'
import { addLicenses, createItem, createProvider, getAdminItem, listProviders, updateItem, updateProvider } from '../catalog/index.js'
import { repriceItemsNow, repriceProviderNow } from '../suppliers/index.js'
import * as S from './admin.schemas.js'
import { ADMIN_DOCS } from './admin.openapi.js'

const tags = ['operator']

/** The operator API of docs/design.md §11 (accounts, balance, items, licenses, providers). */
export function adminRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db, vault } = ctx
  const forgetting = <T>(accountId: number, change: Promise<T>) => forgettingAccount(ctx, accountId, change)
  return async (app) => {
    app.post(
      '/resellers',
      {
        schema: {
          tags,
          summary: 'Create a reseller account and its first API key',
          body: S.CreateAccountBody,
          ...operation('operator', ADMIN_DOCS.adminCreateReseller, { 200: S.CreatedAccount }),
        },
      },
      async (request) => ok(await createAccount(db, request.body)),
    )
    app.get(
      '/resellers',
      {
        schema: {
          tags,
          summary: 'List reseller accounts (search by name, email or id)',
          querystring: Type.Object({
            page: Type.Optional(PageNumber),
            per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
            search: Type.Optional(Type.String({ minLength: 1, maxLength: 191, description: 'in name or email, or the id' })),
          }),
          ...operation('operator', ADMIN_DOCS.adminListResellers, { 200: OkPage(S.Account) }),
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
          summary: 'One reseller account',
          params: IdParam,
          ...operation('operator', ADMIN_DOCS.adminGetReseller, { 200: Ok(S.Account) }),
        },
      },
      async (request) => ok(await getAccount(db, request.params.id)),
    )
    app.patch(
      '/resellers/:id',
      {
        schema: {
          tags,
          summary: 'Suspend/reactivate, set the lock cap, the IP allow-list or the price level',
          params: IdParam,
          body: S.AccountChangesBody,
          ...operation('operator', ADMIN_DOCS.adminUpdateReseller, { 200: Ok(S.Account) }),
        },
      },
      async (request) => ok(await forgetting(request.params.id, updateAccount(db, request.params.id, request.body))),
    )
    app.post(
      '/resellers/:id/api-keys',
      {
        schema: {
          tags,
          summary: 'Rotate the API key (the old one stops working at once)',
          params: IdParam,
          ...operation('operator', ADMIN_DOCS.adminRotateApiKey, { 200: S.RotatedKey }),
        },
      },
      async (request) => ok(await forgetting(request.params.id, rotateApiKey(db, request.params.id))),
    )
    app.post(
      '/resellers/:id/balance',
      {
        schema: {
          tags,
          summary: 'Credit or debit a balance (idempotent by reference)',
          params: IdParam,
          body: S.AdjustmentBody,
          ...operation('operator', ADMIN_DOCS.adminAdjustBalance, { 200: S.Adjustment }),
        },
      },
      async (request) => ok(await adjustBalance(db, request.params.id, request.body)),
    )

    app.post(
      '/items',
      {
        schema: {
          tags,
          summary: 'Create an item (a variant)',
          body: S.CreateItemBody,
          ...operation('operator', ADMIN_DOCS.adminCreateItem, { 200: S.AdminItem }),
        },
      },
      async (request) => ok(await createItem(db, request.body)),
    )
    app.get(
      '/items/:id',
      {
        schema: {
          tags,
          summary: 'One item, active or not',
          params: IdParam,
          ...operation('operator', ADMIN_DOCS.adminGetItem, { 200: S.AdminItem }),
        },
      },
      async (request) => ok(await getAdminItem(db, request.params.id)),
    )
    app.patch(
      '/items/:id',
      {
        schema: {
          tags,
          summary: 'Change price, stock, activity or provider mapping',
          params: IdParam,
          body: S.ItemChangesBody,
          ...operation('operator', ADMIN_DOCS.adminUpdateItem, { 200: S.AdminItem }),
        },
      },
      async (request) => {
        const item = await updateItem(db, request.params.id, request.body)
        // Unlocked, an item takes its rule's price now rather than at the next sync.
        const repriced = request.body.price_locked === false && (await repriceItemsNow(db, [item.id])) > 0
        return ok(repriced ? await getAdminItem(db, item.id) : item)
      },
    )
    // Stock arrives in bulk: this one route takes up to 8 MiB.
    app.post(
      '/items/:id/licenses',
      {
        bodyLimit: 8 * 1024 * 1024,
        schema: {
          tags,
          summary: 'Add auto stock; duplicates are skipped and counted',
          params: IdParam,
          body: S.LicensesBody,
          ...operation('operator', ADMIN_DOCS.adminAddLicenses, { 200: S.LicensesAdded }),
        },
      },
      async (request) => ok(await addLicenses(db, vault, request.params.id, request.body.licenses)),
    )

    app.post(
      '/providers',
      {
        schema: {
          tags,
          summary: 'Register an upstream provider',
          body: S.ProviderBody,
          ...operation('operator', ADMIN_DOCS.adminCreateProvider, { 200: Ok(S.Provider) }),
        },
      },
      async (request) => ok(await createProvider(db, vault, request.body)),
    )
    app.get(
      '/providers',
      {
        schema: {
          tags,
          summary: 'List providers',
          ...operation('operator', ADMIN_DOCS.adminListProviders, { 200: Ok(Type.Array(S.Provider)) }),
        },
      },
      async () => ok(await listProviders(db)),
    )
    app.patch(
      '/providers/:code',
      {
        schema: {
          tags,
          summary: 'Change a provider; active=false makes its items unavailable',
          params: S.CodeParam,
          body: S.ProviderChangesBody,
          ...operation('operator', ADMIN_DOCS.adminUpdateProvider, { 200: Ok(S.Provider) }),
        },
      },
      async (request) => {
        const provider = await updateProvider(db, vault, request.params.code, request.body)
        // On or off, the provider may now be (or no longer be) the first serving source of items bought from it.
        if (request.body.active !== undefined) await repriceProviderNow(db, provider.code)
        return ok(provider)
      },
    )
  }
}
