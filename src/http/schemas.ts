import { Type, type TSchema } from '@sinclair/typebox'

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
