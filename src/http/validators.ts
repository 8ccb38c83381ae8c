import AjvCompiler, { type ValidatorFactory } from '@fastify/ajv-compiler'
import type { FieldErrors } from '../errors.js'
import { fieldErrorsOf } from './error-handler.js'
import { clampingPerPage, lenientBody } from './lenient-input.js'

type ValidateFunction = ((data: unknown, context?: unknown) => boolean) & { errors?: unknown[] | null; schemaEnv?: unknown }
type RouteSchema = { schema: unknown; httpPart?: string; url?: string }
type ExternalSchemas = Record<string, unknown>

// allErrors names every bad field at once; unknown fields are dropped where a schema closes an object.
const SHARED = { allErrors: true, useDefaults: true, removeAdditional: true } as const
const pool = AjvCompiler()

// NUL, a high surrogate without its low half, or a low one without its high half.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** A path segment of an unknown field is the client's text: never echo much of it. */
const segment = (key: string | number) => (typeof key === 'string' && key.length > 64 ? `${key.slice(0, 64)}…` : String(key))

type Issue = { instancePath: string; keyword: string; message: string; params: Record<string, unknown> }

/**
 * Values PostgreSQL cannot hold as they are, found anywhere in the value, each as an Ajv-like
 * issue with its path: NUL in a string, unpaired surrogates (stored changed, as U+FFFD), and a
 * number that is not finite (Ajv coerces the text "1e400" to Infinity and then skips its limits).
 */
function unstorableValues(value: unknown): Issue[] {
  const issues: Issue[] = []
  // Iterative: a 64 KiB body can nest thousands of levels deep.
  const stack: [unknown, string][] = [[value, '']]
  while (stack.length > 0 && issues.length < 50) {
    const [current, path] = stack.pop()!
    if (typeof current === 'string') {
      if (UNSTORABLE.test(current))
        issues.push({ instancePath: path, keyword: 'text', message: 'must not contain NUL or unpaired surrogate characters', params: {} })
    } else if (typeof current === 'number') {
      if (!Number.isFinite(current)) issues.push({ instancePath: path, keyword: 'finite', message: 'must be a finite number', params: {} })
    } else if (Array.isArray(current)) {
      current.forEach((v, i) => stack.push([v, `${path}/${i}`]))
    } else if (current !== null && typeof current === 'object') {
      for (const [k, v] of Object.entries(current)) stack.push([v, `${path}/${segment(k)}`])
    }
  }
  return issues
}

function refusingUnstorable(validate: ValidateFunction): ValidateFunction {
  const checked: ValidateFunction = (data, context) => {
    const valid = validate(data, context)
    const issues = unstorableValues(data)
    checked.errors = issues.length > 0 ? [...(validate.errors ?? []), ...issues] : validate.errors
    return valid && issues.length === 0
  }
  // Fastify hands Ajv the parent object only when it sees schemaEnv (defaults on a root value).
  checked.schemaEnv = validate.schemaEnv
  return checked
}

/**
 * Fastify's validator factory, with two Ajv instances (docs/design.md §3): a JSON body is typed strictly
 * (`"2"` is no integer, `true` no quantity, `null` no 0), while query strings and path parameters
 * are text and parse numbers and booleans from it. Both keep Fastify's formats (ajv-formats).
 */
function validatorsFor(externalSchemas: ExternalSchemas, options?: { plugins?: unknown[] }) {
  const plugins = (options?.plugins ?? []) as never
  const json = pool(externalSchemas as never, { plugins, customOptions: { ...SHARED, coerceTypes: false } }) as unknown as (
    route: RouteSchema,
  ) => ValidateFunction
  const text = pool(externalSchemas as never, { plugins, customOptions: { ...SHARED, coerceTypes: 'array' } }) as unknown as (
    route: RouteSchema,
  ) => ValidateFunction
  return (route: RouteSchema) => {
    const reseller = route.url?.startsWith('/api/v1/') === true
    if (route.httpPart !== 'body') {
      const checked = refusingUnstorable(text(route))
      const clamp = reseller && route.httpPart === 'querystring' ? clampingPerPage(route.schema) : undefined
      return clamp ? before(clamp, checked) : checked
    }
    const strict = refusingUnstorable(json(route))
    // Only the reseller API takes an integer as its digits or a note as a number (lenient-input.ts); operators stay strict.
    const lenient = reseller ? lenientBody(route.schema) : undefined
    return lenient ? before(lenient, strict) : strict
  }
}

/** A validator that first adjusts the value in place (lenient-input.ts). */
function before(adjust: (data: unknown) => void, validate: ValidateFunction): ValidateFunction {
  const checked: ValidateFunction = (data, context) => {
    adjust(data)
    const valid = validate(data, context)
    checked.errors = validate.errors
    return valid
  }
  checked.schemaEnv = validate.schemaEnv
  return checked
}

// The package's types describe the compiler as taking a bare schema; Fastify hands it the route.
export const buildValidator = validatorsFor as unknown as ValidatorFactory

// The console's forms are held to the operator API's body schemas by Ajv too, so both refuse the same values
// in the same words; without defaults or dropped fields: the form's values are checked, not changed.
const forms = pool({}, { customOptions: { allErrors: true, coerceTypes: false, useDefaults: false, removeAdditional: false } })

/** A value held to a schema as the API holds a JSON body: its field errors in the API's words (a root one named `context`), none when it passes. */
export function fieldErrorsAgainst(schema: object, value: unknown, context: string): FieldErrors | undefined {
  const validate = refusingUnstorable((forms as unknown as (route: RouteSchema) => ValidateFunction)({ schema }))
  return validate(value) ? undefined : fieldErrorsOf((validate.errors ?? []) as never, context)
}
