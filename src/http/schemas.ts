import { Type, type IntegerOptions, type TSchema } from '@sinclair/typebox'

/** Shared response shapes of docs/design.md §3. */
export const ErrorBody = Type.Object(
  {
    message: Type.String({ description: 'upper-case error code' }),
    errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
    data: Type.Optional(Type.Unknown()),
  },
  { $id: 'ErrorBody', title: 'Error' },
)

// Handlers may hand over a Date: the serializer writes it as ISO 8601 UTC.
export const Timestamp = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' })
export { StringEnum } from '../string-enum.js'

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

export const Ok = <T extends TSchema>(data: T) => Type.Object({ message: Type.Literal('OK'), data })

export const PageMeta = Type.Object({
  page: Type.Integer(),
  per_page: Type.Integer(),
  total: Type.Integer(),
  last_page: Type.Integer(),
})

export const OkPage = <T extends TSchema>(item: T) => Type.Object({ message: Type.Literal('OK'), data: Type.Array(item), meta: PageMeta })

const errorRef = Type.Ref(ErrorBody)

/** Error responses at these statuses; a documented route's come from its codes (http/operation.ts). */
export function errors(...statuses: number[]): Record<number, typeof errorRef> {
  return Object.fromEntries(statuses.map((s) => [s, errorRef]))
}

/** A row id: beyond 2^53 a JSON number is no longer exact, and the database would refuse it anyway. */
export const RowId = (options: { description?: string } = {}) => Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, ...options })
export const PageNumber = Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })

export const IdParam = Type.Object({ id: RowId() })

export const Paging = {
  page: Type.Optional(PageNumber),
}

/** The pattern of an integer sent as text; http/lenient-input.ts knows a reseller body's integer by it. */
export const DIGITS = '^[0-9]+$'

/**
 * A reseller body's integer, also as a string of decimal digits (`"4"`: what PHP integrations send,
 * docs/design.md §3). The schema says both; the validator turns the digits into the number before
 * checking the bounds, so handlers only ever see a number. Operator bodies keep `Type.Integer`.
 */
export const IntegerOrDigits = ({ description, examples, default: fallback, ...bounds }: IntegerOptions = {}) =>
  Type.Unsafe<number>(
    Type.Union([Type.Integer(bounds), Type.String({ pattern: DIGITS, description: 'the same integer as a string of decimal digits' })], {
      description,
      examples,
      ...(fallback !== undefined && { default: fallback }),
    }),
  )

/** A row id in a reseller body: an integer or its digits. */
export const RowIdOrDigits = (options: { description?: string } = {}) =>
  IntegerOrDigits({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, ...options })

/**
 * A number where a reseller body takes text (a note): taken as its decimal text before the text's own
 * checks, so handlers see only the text (hence `never` in the static type).
 */
export const NumberAsText = Type.Unsafe<never>({ type: 'number', description: 'a number, taken as its decimal text' })
