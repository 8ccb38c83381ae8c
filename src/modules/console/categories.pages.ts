import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { IdParam, PageNumber } from '../../http/schemas.js'
import * as categories from '../catalog/index.js'
import * as products from '../catalog/index.js'
import { Form, Optional, Text, blankToUndefined, noticeOf, wholeNumber } from './form.js'

const hide = true
const Done = Type.Object({ done: Optional(Type.String({ maxLength: 20 })) })
const ListQuery = Type.Object({
  search: Optional(Type.String({ maxLength: 191 })),
  category: Optional(Type.String({ maxLength: 191 })),
  page: Optional(PageNumber),
  done: Optional(Type.String({ maxLength: 20 })),
})
// Every category, for the pickers (a store has tens, not thousands).
const allCategories = async (db: AppContext['db']) => (await categories.listCategories(db, { page: 1, perPage: 500 })).rows

/** Categories and products: list, create, edit (name, icon or image, a product's category), delete the empty ones. */
export function categoryPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get(
      '/console/categories',
      { config: { operationId: 'adminListCategories' }, schema: { hide, querystring: ListQuery } },
      async (request, reply) => {
        const { search, page = 1 } = request.query
        const { rows, total } = await categories.listCategories(db, { page, perPage: 100, search: blankToUndefined(search) })
        return reply.page('categories.eta', { rows, total, page, search: search ?? '', notice: noticeOf(request.query) })
      },
    )
    app.post(
      '/console/categories',
      { config: { operationId: 'adminCreateCategory' }, schema: { hide, body: Form({ name: Text(191), icon: Optional(Text(500)) }) } },
      async (request, reply) => {
        const created = await categories.createCategory(db, { name: request.body.name, icon: request.body.icon })
        return reply.redirect(`/console/categories/${created.id}?done=category`, 303)
      },
    )
    app.get(
      '/console/categories/:id',
      { config: { operationId: 'adminGetCategory' }, schema: { hide, params: IdParam, querystring: Done } },
      async (request, reply) => {
        const category = await categories.getCategory(db, request.params.id)
        const { rows } = await products.listProducts(db, { page: 1, perPage: 100, category: String(category.id) })
        return reply.page('category.eta', { category, products: rows, notice: noticeOf(request.query) })
      },
    )
    app.post(
      '/console/categories/:id',
      {
        config: { operationId: 'adminUpdateCategory' },
        schema: { hide, params: IdParam, body: Form({ name: Text(191), icon: Optional(Text(500)) }) },
      },
      async (request, reply) => {
        await categories.updateCategory(db, request.params.id, { name: request.body.name, icon: request.body.icon ?? '' })
        return reply.redirect(`/console/categories/${request.params.id}?done=category`, 303)
      },
    )
    app.post(
      '/console/categories/:id/delete',
      { config: { operationId: 'adminDeleteCategory' }, schema: { hide, params: IdParam, body: Form({}) } },
      async (request, reply) => {
        await categories.deleteCategory(db, request.params.id)
        return reply.redirect('/console/categories?done=deleted', 303)
      },
    )

    app.get(
      '/console/products',
      { config: { operationId: 'adminListProducts' }, schema: { hide, querystring: ListQuery } },
      async (request, reply) => {
        const { search, category, page = 1 } = request.query
        const filter = { page, perPage: 100, search: blankToUndefined(search), category: blankToUndefined(category) }
        const [{ rows, total }, all] = await Promise.all([products.listProducts(db, filter), allCategories(db)])
        const query = { search: search ?? '', category: category ?? '' }
        return reply.page('products.eta', { rows, total, page, query, categories: all, notice: noticeOf(request.query) })
      },
    )
    app.post(
      '/console/products',
      {
        config: { operationId: 'adminCreateProduct' },
        schema: { hide, body: Form({ name: Text(191), category_id: Text(20), image: Optional(Text(500)) }) },
      },
      async (request, reply) => {
        const { name, category_id, image } = request.body
        const created = await products.createProduct(db, { name, image, category_id: wholeNumber('category_id', category_id) })
        return reply.redirect(`/console/products/${created.id}?done=product`, 303)
      },
    )
    app.get(
      '/console/products/:id',
      { config: { operationId: 'adminGetProduct' }, schema: { hide, params: IdParam, querystring: Done } },
      async (request, reply) => {
        const product = await products.getProduct(db, request.params.id)
        const [items, all] = await Promise.all([products.listProductItems(db, product.id), allCategories(db)])
        return reply.page('product.eta', { product, items, categories: all, notice: noticeOf(request.query) })
      },
    )
    app.post(
      '/console/products/:id',
      {
        config: { operationId: 'adminUpdateProduct' },
        schema: { hide, params: IdParam, body: Form({ name: Text(191), category_id: Text(20), image: Optional(Text(500)) }) },
      },
      async (request, reply) => {
        const { name, category_id, image } = request.body
        const changes = { name, image: image ?? '', category_id: wholeNumber('category_id', category_id) }
        await products.updateProduct(db, request.params.id, changes)
        return reply.redirect(`/console/products/${request.params.id}?done=product`, 303)
      },
    )
    app.post(
      '/console/products/:id/delete',
      { config: { operationId: 'adminDeleteProduct' }, schema: { hide, params: IdParam, body: Form({}) } },
      async (request, reply) => {
        await products.deleteProduct(db, request.params.id)
        return reply.redirect('/console/products?done=deleted', 303)
      },
    )
  }
}
