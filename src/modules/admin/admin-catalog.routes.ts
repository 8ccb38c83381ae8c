import { ok, paginate } from '../../http/envelope.js'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { operation } from '../../http/operation.js'
import { IdParam } from '../../http/schemas.js'
import * as categories from '../catalog/index.js'
import * as products from '../catalog/index.js'
import * as S from './admin-catalog.schemas.js'
import { ADMIN_CATALOG_DOCS } from './admin-catalog.openapi.js'

const tags = ['operator']

/** Categories and products on their own (docs/design.md §11 creates them by name from an item; here they are listed and edited). */
export function adminCatalogRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get(
      '/categories',
      {
        schema: {
          tags,
          summary: 'List categories with their product and item counts',
          querystring: S.CategoriesQuery,
          ...operation('operator', ADMIN_CATALOG_DOCS.adminListCategories, { 200: S.CategoryList }),
        },
      },
      async (request) => {
        const { page = 1, per_page = 50, search } = request.query
        const { rows, total } = await categories.listCategories(db, { page, perPage: per_page, search })
        return ok(rows, paginate({ page, per_page }, total))
      },
    )
    app.post(
      '/categories',
      {
        schema: {
          tags,
          summary: 'Create a category',
          body: S.CategoryBody,
          ...operation('operator', ADMIN_CATALOG_DOCS.adminCreateCategory, { 200: S.OneCategory }),
        },
      },
      async (request) => ok(await categories.createCategory(db, request.body)),
    )
    app.get(
      '/categories/:id',
      {
        schema: {
          tags,
          summary: 'One category',
          params: IdParam,
          ...operation('operator', ADMIN_CATALOG_DOCS.adminGetCategory, { 200: S.OneCategory }),
        },
      },
      async (request) => ok(await categories.getCategory(db, request.params.id)),
    )
    app.patch(
      '/categories/:id',
      {
        schema: {
          tags,
          summary: 'Rename a category or change its icon; its items show the change in the next catalog delta',
          params: IdParam,
          body: S.CategoryChangesBody,
          ...operation('operator', ADMIN_CATALOG_DOCS.adminUpdateCategory, { 200: S.OneCategory }),
        },
      },
      async (request) => ok(await categories.updateCategory(db, request.params.id, request.body)),
    )
    app.delete(
      '/categories/:id',
      {
        schema: {
          tags,
          summary: 'Delete an empty category',
          params: IdParam,
          ...operation('operator', ADMIN_CATALOG_DOCS.adminDeleteCategory, { 200: S.Deleted }),
        },
      },
      async (request) => ok(await categories.deleteCategory(db, request.params.id)),
    )

    app.get(
      '/products',
      {
        schema: {
          tags,
          summary: 'List products with their category and item count',
          querystring: S.ProductsQuery,
          ...operation('operator', ADMIN_CATALOG_DOCS.adminListProducts, { 200: S.ProductList }),
        },
      },
      async (request) => {
        const { page = 1, per_page = 50, search, category } = request.query
        const { rows, total } = await products.listProducts(db, { page, perPage: per_page, search, category })
        return ok(rows, paginate({ page, per_page }, total))
      },
    )
    app.post(
      '/products',
      {
        schema: {
          tags,
          summary: 'Create a product in a category',
          body: S.ProductBody,
          ...operation('operator', ADMIN_CATALOG_DOCS.adminCreateProduct, { 200: S.OneProduct }),
        },
      },
      async (request) => ok(await products.createProduct(db, request.body)),
    )
    app.get(
      '/products/:id',
      {
        schema: {
          tags,
          summary: 'One product',
          params: IdParam,
          ...operation('operator', ADMIN_CATALOG_DOCS.adminGetProduct, { 200: S.OneProduct }),
        },
      },
      async (request) => ok(await products.getProduct(db, request.params.id)),
    )
    app.get(
      '/products/:id/items',
      {
        schema: {
          tags,
          summary: "A product's items, on or off",
          params: IdParam,
          ...operation('operator', ADMIN_CATALOG_DOCS.adminListProductItems, { 200: S.ProductItems }),
        },
      },
      async (request) => {
        await products.getProduct(db, request.params.id)
        return ok(await products.listProductItems(db, request.params.id))
      },
    )
    app.patch(
      '/products/:id',
      {
        schema: {
          tags,
          summary: 'Rename a product, change its image or move it to another category',
          params: IdParam,
          body: S.ProductChangesBody,
          ...operation('operator', ADMIN_CATALOG_DOCS.adminUpdateProduct, { 200: S.OneProduct }),
        },
      },
      async (request) => ok(await products.updateProduct(db, request.params.id, request.body)),
    )
    app.delete(
      '/products/:id',
      {
        schema: {
          tags,
          summary: 'Delete a product without items',
          params: IdParam,
          ...operation('operator', ADMIN_CATALOG_DOCS.adminDeleteProduct, { 200: S.Deleted }),
        },
      },
      async (request) => ok(await products.deleteProduct(db, request.params.id)),
    )
  }
}
