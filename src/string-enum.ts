import { Type, type TUnsafe } from '@sinclair/typebox'

/**
 * A closed set of strings: `{type: 'string', enum}`, one readable error instead of a union's.
 * A String kind underneath, so TypeBox's Value functions (config) handle it as Ajv does (routes).
 */
export const StringEnum = <const T extends string>(values: readonly T[], options: { description?: string; default?: T } = {}) =>
  Type.String({ enum: [...values], ...options }) as unknown as TUnsafe<T>
