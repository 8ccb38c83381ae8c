import { Type } from '@sinclair/typebox'
import { Nullable, Ok, OkPage, PageNumber, RowId, Timestamp } from '../../http/schemas.js'

const Name = Type.String({ minLength: 1, maxLength: 191 })
const Picture = (what: string) =>
  Nullable(Type.String({ maxLength: 500, description: `the ${what}: a URL (or any short text); null or "" clears it` }))

export const Category = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Nullable(Type.String({ description: 'from the name, unique: what GET /api/v1/item?category= also takes' })),
  icon: Nullable(Type.String()),
  product_count: Type.Integer(),
  item_count: Type.Integer({ description: 'items under its products, on or off' }),
  created_at: Timestamp,
})
export const Product = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  image: Nullable(Type.String()),
  category_id: Type.Integer(),
  category: Type.String({ description: "the category's name" }),
  item_count: Type.Integer({ description: 'its items, on or off' }),
  created_at: Timestamp,
})
export const Deleted = Ok(Type.Object({ id: Type.Integer(), name: Type.String(), deleted: Type.Literal(true) }))

const ListQuery = {
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 191, description: 'in the name' })),
}
export const CategoriesQuery = Type.Object(ListQuery)
export const ProductsQuery = Type.Object({
  ...ListQuery,
  category: Type.Optional(Type.String({ minLength: 1, maxLength: 191, description: 'a category id or name (any case)' })),
})

export const CategoryBody = Type.Object({ name: Name, icon: Type.Optional(Picture('icon')) })
export const CategoryChangesBody = Type.Partial(CategoryBody)
export const ProductBody = Type.Object({
  name: Name,
  image: Type.Optional(Picture('image')),
  category_id: Type.Optional(RowId({ description: 'the category it goes into' })),
  category: Type.Optional(
    Type.String({ minLength: 1, maxLength: 191, description: 'or the category by name, created on first use; neither: Uncategorized' }),
  ),
})
export const ProductChangesBody = Type.Object({
  name: Type.Optional(Name),
  image: Type.Optional(Picture('image')),
  category_id: Type.Optional(RowId({ description: 'moves the product (and its items) to this category' })),
})

export const ProductItems = Ok(
  Type.Array(
    Type.Object({
      id: Type.Integer(),
      sku: Type.String(),
      name: Type.String(),
      price: Type.Integer(),
      order_process: Type.String(),
      active: Type.Boolean(),
    }),
    { description: 'by id; the full view of each is GET /items/{id}' },
  ),
)

export const CategoryList = OkPage(Category)
export const OneCategory = Ok(Category)
export const ProductList = OkPage(Product)
export const OneProduct = Ok(Product)
