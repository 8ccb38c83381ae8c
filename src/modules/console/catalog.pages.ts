import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { IdParam, PageNumber, StringEnum } from '../../http/schemas.js'
import {
  addLicenses,
  createItem,
  createProvider,
  getAdminItem,
  listCategories,
  listOperatorItems,
  listProviders,
  updateItem,
  updateProvider,
} from '../catalog/index.js'
import { hasBalance, providerBalance, refreshProviderBalance } from '../fulfilment/index.js'
import { getItemLevelPrices } from '../price-levels/index.js'
import { Form, Optional, Text, asApiBody, blankToUndefined, checked, decimal, noticeOf, wholeNumber } from './form.js'

const hide = true
const Done = Type.Object({ done: Optional(Type.String({ maxLength: 20 })) })
const CodeParam = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) })
const ItemFields = {
  name: Text(191),
  price: Text(16),
  stock: Optional(Text(16)),
  min_order: Optional(Text(10)),
  provider: Optional(Text(64)),
  provider_code: Optional(Text(191)),
}

/** Form text of an item's numbers and provider mapping; blanks leave a value as it is (or its default). */
const itemValues = (b: { name: string; price: string; stock?: string; min_order?: string; provider?: string; provider_code?: string }) => ({
  name: b.name,
  price: wholeNumber('price', b.price) ?? 0,
  stock: wholeNumber('stock', b.stock),
  min_order: wholeNumber('min_order', b.min_order),
  provider: blankToUndefined(b.provider),
  provider_code: blankToUndefined(b.provider_code),
})

const Thresholds = Type.Object({
  balance_alert_below: Type.Union([Type.Integer({ minimum: 0, maximum: 1_000_000_000_000_000 }), Type.Null()]),
  balance_alert_hours: Type.Union([Type.Number({ minimum: 0.01, maximum: 999_999 }), Type.Null()]),
})

/** The catalog: items by category and product (create, edit, on/off, licenses), and the upstream providers. */
export function catalogPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db, vault } = ctx
  return async (app) => {
    app.get(
      '/console/items',
      {
        config: { operationId: 'adminListItems' },
        schema: {
          hide,
          querystring: Type.Object({
            search: Optional(Type.String({ maxLength: 100 })),
            category: Optional(Type.String({ maxLength: 191 })),
            page: Optional(PageNumber),
          }),
        },
      },
      async (request, reply) => {
        const { search, category, page = 1 } = request.query
        const filter = { page, perPage: 100, search: blankToUndefined(search), category: blankToUndefined(category) }
        const [{ rows, total }, categories] = await Promise.all([
          listOperatorItems(request.readDb, filter),
          listCategories(request.readDb, { page: 1, perPage: 500 }).then((r) => r.rows),
        ])
        return reply.page('items.eta', { rows, total, page, categories, query: { search: search ?? '', category: category ?? '' } })
      },
    )
    app.post(
      '/console/items',
      {
        config: { operationId: 'adminCreateItem' },
        schema: {
          hide,
          body: Form({
            ...ItemFields,
            product_name: Text(191),
            category: Optional(Text(191)),
            order_process: StringEnum(['auto', 'h2h', 'smm', 'manual']),
            unlimited_stock: Optional(Text(5)),
          }),
        },
      },
      async (request, reply) => {
        const b = request.body
        const item = await createItem(db, {
          ...itemValues(b),
          product_name: b.product_name,
          category: blankToUndefined(b.category),
          order_process: b.order_process,
          unlimited_stock: checked(b.unlimited_stock),
        })
        return reply.redirect(`/console/items/${item.id}?done=item`, 303)
      },
    )
    app.get(
      '/console/items/:id',
      { config: { operationId: 'adminGetItem' }, schema: { hide, params: IdParam, querystring: Done } },
      async (request, reply) => {
        const item = await getAdminItem(db, request.params.id)
        return reply.page('item.eta', { item, levels: await getItemLevelPrices(db, item.id), notice: noticeOf(request.query) })
      },
    )
    app.post(
      '/console/items/:id',
      {
        config: { operationId: 'adminUpdateItem' },
        schema: { hide, params: IdParam, body: Form({ ...ItemFields, description: Optional(Text(5000)) }) },
      },
      async (request, reply) => {
        await updateItem(db, request.params.id, { ...itemValues(request.body), description: request.body.description })
        return reply.redirect(`/console/items/${request.params.id}?done=item`, 303)
      },
    )
    app.post(
      '/console/items/:id/active',
      {
        config: { operationId: 'adminUpdateItem' },
        schema: { hide, params: IdParam, body: Form({ active: StringEnum(['true', 'false']) }) },
      },
      async (request, reply) => {
        await updateItem(db, request.params.id, { active: request.body.active === 'true' })
        return reply.redirect(`/console/items/${request.params.id}?done=item`, 303)
      },
    )
    // A promotion: the item may sell below its source's cost + the floor margin (docs/design.md §11c).
    app.post(
      '/console/items/:id/allow-loss',
      {
        config: { operationId: 'adminUpdateItem' },
        schema: { hide, params: IdParam, body: Form({ allow_loss: StringEnum(['true', 'false']) }) },
      },
      async (request, reply) => {
        await updateItem(db, request.params.id, { allow_loss: request.body.allow_loss === 'true' })
        return reply.redirect(`/console/items/${request.params.id}?done=item`, 303)
      },
    )
    // Pasted or read from a file in the browser: one license a line; blank lines are no license.
    app.post(
      '/console/items/:id/licenses',
      {
        config: { operationId: 'adminAddLicenses' },
        bodyLimit: 8 * 1024 * 1024,
        schema: { hide, params: IdParam, body: Form({ licenses: Type.String({ maxLength: 8 * 1024 * 1024 }) }) },
      },
      async (request, reply) => {
        const licenses = request.body.licenses
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean)
        const added = licenses.length ? await addLicenses(db, vault, request.params.id, licenses) : { added: 0, duplicates: 0 }
        const item = await getAdminItem(db, request.params.id)
        return reply.page('item.eta', { item, added, levels: await getItemLevelPrices(db, item.id) })
      },
    )

    app.get(
      '/console/providers',
      { config: { operationId: 'adminListProviders' }, schema: { hide, querystring: Done } },
      async (request, reply) =>
        reply.page('providers.eta', { providers: await listProviders(db), hasBalance, notice: noticeOf(request.query) }),
    )
    app.post(
      '/console/providers',
      {
        config: { operationId: 'adminCreateProvider' },
        schema: {
          hide,
          body: Form({
            code: Text(64),
            kind: StringEnum(['digiflazz', 'smm_panel']),
            base_url: Text(500),
            username: Optional(Text(191)),
            api_key: Optional(Text(500)),
          }),
        },
      },
      async (request, reply) => {
        const { code, kind, base_url, username, api_key } = request.body
        await createProvider(db, vault, { code, kind, base_url, username: blankToUndefined(username), api_key: blankToUndefined(api_key) })
        return reply.redirect('/console/providers?done=provider', 303)
      },
    )
    app.post(
      '/console/providers/:code/active',
      {
        config: { operationId: 'adminUpdateProvider' },
        schema: { hide, params: CodeParam, body: Form({ active: StringEnum(['true', 'false']) }) },
      },
      async (request, reply) => {
        await updateProvider(db, vault, request.params.code, { active: request.body.active === 'true' })
        return reply.redirect('/console/providers?done=provider', 303)
      },
    )
    // The low-balance alert's thresholds (docs/design.md §11e), held to the operator API's PATCH schema: blank switches one off.
    app.post(
      '/console/providers/:code/thresholds',
      {
        config: { operationId: 'adminUpdateProvider' },
        schema: {
          hide,
          params: CodeParam,
          body: Form({ balance_alert_below: Optional(Text(20)), balance_alert_hours: Optional(Text(20)) }),
        },
      },
      async (request, reply) => {
        const { balance_alert_below, balance_alert_hours } = request.body
        const thresholds = asApiBody<{ balance_alert_below: number | null; balance_alert_hours: number | null }>(Thresholds, {
          balance_alert_below: wholeNumber('balance_alert_below', balance_alert_below) ?? null,
          balance_alert_hours: decimal('balance_alert_hours', balance_alert_hours) ?? null,
        })
        await updateProvider(db, vault, request.params.code, thresholds)
        return reply.redirect('/console/providers?done=provider', 303)
      },
    )
    // Fetched by htmx into the providers table: the last read (docs/design.md §11e), no call to the provider.
    app.get(
      '/console/providers/:code/balance',
      { config: { operationId: 'adminProviderBalance' }, schema: { hide, params: CodeParam } },
      async (request, reply) => reply.page('provider-balance.eta', { balance: await providerBalance(db, request.params.code) }),
    )
    app.post(
      '/console/providers/:code/balance/refresh',
      { config: { operationId: 'adminRefreshProviderBalance' }, schema: { hide, params: CodeParam } },
      async (request, reply) => {
        await refreshProviderBalance(db, vault, request.params.code, ctx.config.providerTimeoutMs)
        return reply.redirect('/console/providers?done=balance', 303)
      },
    )
  }
}
