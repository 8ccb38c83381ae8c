import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { Nullable, NumberAsText, Ok, RowIdOrDigits } from '../../http/schemas.js'
import { ValidationFields } from '../catalog/index.js'
import { createAccountValidation } from './validation.service.js'
import { VALIDATION_DOCS } from './fulfilment.openapi.js'

const tags = ['catalog']

// customer_id and zone_id are often sent as numbers (a user id typed as one): taken as their digits.
const ValidateBody = Type.Object({
  item_id: RowIdOrDigits(),
  customer_id: Type.Union([
    Type.String({ minLength: 1, maxLength: 50, description: 'game account id, meter number, phone number' }),
    NumberAsText,
  ]),
  zone_id: Type.Optional(
    Nullable(Type.Union([Type.String({ maxLength: 20, description: 'the game server, for items with requires_zone_id' }), NumberAsText])),
  ),
})
const Validated = Ok(
  Type.Object({
    display_name: Type.String(),
    account_name: Type.String(),
    region: Type.String(),
    cached: Type.Boolean(),
    details: Type.Record(Type.String(), Type.String(), {
      description: 'what the validation source said about the account: `name`, `region`, and for a PLN meter `segment_power`',
    }),
  }),
)
const ServicesQuery = Type.Object({ search: Type.Optional(Type.String({ maxLength: 100 })) })
const Services = Type.Object({
  message: Type.Literal('OK'),
  data: Type.Array(
    Type.Object({
      product_id: Type.Integer(),
      product_name: Type.String(),
      category: Type.String(),
      validation: Type.Object(
        {
          available: Type.Boolean(),
          requires_zone_id: Type.Boolean({ description: 'true when any of its variants needs zone_id' }),
          fields: ValidationFields,
          endpoint: Type.String({ description: 'where to validate: POST with item_id, customer_id, zone_id' }),
        },
        { description: 'the product’s validation metadata' },
      ),
      variants: Type.Array(
        Type.Object({ item_id: Type.Integer(), name: Type.String(), requires_zone_id: Type.Boolean(), fields: ValidationFields }),
      ),
    }),
  ),
  meta: Type.Object({
    total_products: Type.Integer(),
    total_items: Type.Integer({ description: 'the variants listed' }),
    total_variants: Type.Integer({ description: 'the same as total_items (its earlier name)' }),
  }),
})

/** Account validation before buying (docs/design.md §5b). */
export function validationRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const validation = createAccountValidation(ctx.db, ctx.vault, ctx.config, ctx.fetch)
  return async (app) => {
    app.post(
      '/item/validate',
      {
        schema: {
          tags,
          summary: 'Check a game account, meter or number before buying',
          description:
            'Checks a game account, PLN meter or number before buying an item that supports it (see `GET /api/v1/validation/services`); a found account is cached for 5 minutes (`cached: true`). An unknown account is a 422 on `customer_id`.',
          body: ValidateBody,
          ...operation('reseller', VALIDATION_DOCS.validateCustomer, { 200: Validated }),
        },
      },
      async (request) => ok(await validation.validate(request.body)),
    )
    app.get(
      '/validation/services',
      {
        schema: {
          tags,
          summary: 'Products and variants that can be validated',
          querystring: ServicesQuery,
          ...operation('reseller', VALIDATION_DOCS.listValidationServices, { 200: Services }),
        },
      },
      async (request) => {
        const { data, meta } = await validation.services(request.query.search)
        return ok(data, meta)
      },
    )
  }
}
