import type { FastifyError, FastifyInstance } from 'fastify'
import { isDatabaseUnavailable, lostStatementHint } from '../db/database.js'
import { AppError, type FieldErrors } from '../errors.js'

const NUMBER_BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'])

type AjvIssue = { instancePath: string; keyword: string; message?: string; params: Record<string, unknown> }

/** `/carts/0/quantity` → `carts.0.quantity`; a missing property is named by its own path. */
export function fieldErrorsOf(issues: AjvIssue[], context?: string): FieldErrors {
  const errors: FieldErrors = {}
  // A failed anyOf (a nullable object or array) repeats its branches' failures: keep only the informative ones.
  const below = (path: string, self: AjvIssue) => issues.some((o) => o !== self && o.instancePath.startsWith(`${path}/`))
  const noise = (i: AjvIssue) =>
    (i.keyword === 'anyOf' &&
      issues.some((o) => o !== i && (o.instancePath === i.instancePath || o.instancePath.startsWith(`${i.instancePath}/`)))) ||
    (i.keyword === 'type' && i.params.type === 'null' && below(i.instancePath, i)) ||
    // A number that crossed a bound of a union's number branch (an integer or its digits as text) is
    // told the bound, not that the other branch wanted a string.
    (i.keyword === 'type' && issues.some((o) => o.instancePath === i.instancePath && NUMBER_BOUNDS.has(o.keyword)))
  for (const issue of issues.filter((i) => !noise(i))) {
    const parts = issue.instancePath.split('/').filter(Boolean)
    if (issue.keyword === 'required') parts.push(String(issue.params.missingProperty))
    if (issue.keyword === 'additionalProperties') parts.push(String(issue.params.additionalProperty))
    const field = parts.join('.') || context || 'body'
    const sentence = sentenceOf(issue)
    ;(errors[field] ??= []).includes(sentence) || errors[field].push(sentence)
  }
  // A union (a number up to 500, or "all") failed every branch: one sentence naming each way to pass.
  for (const issue of issues.filter((i) => i.keyword === 'anyOf')) {
    const field = issue.instancePath.split('/').filter(Boolean).join('.') || context || 'body'
    if ((errors[field]?.length ?? 0) > 1) errors[field] = [errors[field].join(', or ')]
  }
  return errors
}

const ARTICLE: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
}
const FORMATS: Record<string, string> = {
  'date-time': 'a date-time such as 2026-11-22T10:15:00Z',
  date: 'a date such as 2026-11-22',
  uri: 'an absolute URL',
  email: 'an email address',
}

// A pattern is said as the format it stands for, never as a regular expression (docs/design.md §4).
const PATTERNS: Record<string, string> = {
  '^[1-9][0-9]{3}-(0[1-9]|1[0-2])$': 'must be YYYY-MM, a month such as 2026-11',
  '^[a-z0-9][a-z0-9_-]{0,63}$': 'must be 1–64 lower-case letters, digits, - or _, starting with a letter or digit',
  '^https?://[^/?#\\s]+': 'must be an http:// or https:// URL with a host',
  '^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$': 'must be 1–32 letters, digits, - or _, starting with a letter or digit',
  '^[1-9][0-9]{0,15}$': 'must be a line’s order_item_id (digits), as the transaction’s items show it',
  '^[0-9]+$': 'must be a string of decimal digits (no sign, point or spaces)',
  '\\S': 'must not be blank',
}

/** What to send instead, in words: the allowed values, the bound crossed, the expected type. */
function sentenceOf(issue: AjvIssue): string {
  const p = issue.params
  switch (issue.keyword) {
    case 'required':
      return 'is required'
    case 'enum':
      return `must be one of: ${(p.allowedValues as unknown[]).join(', ')}`
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`
    case 'maximum':
      return `must be ≤ ${p.limit}`
    case 'minimum':
      return `must be ≥ ${p.limit}`
    case 'exclusiveMaximum':
      return `must be < ${p.limit}`
    case 'exclusiveMinimum':
      return `must be > ${p.limit}`
    case 'maxLength':
      return `must be at most ${p.limit} characters`
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${p.limit} characters`
    case 'maxItems':
      return `must have at most ${p.limit} entries`
    case 'minItems':
      return `must have at least ${p.limit} ${p.limit === 1 ? 'entry' : 'entries'}`
    case 'type':
      return `must be ${String(p.type)
        .split(',')
        .map((t) => ARTICLE[t] ?? t)
        .join(' or ')}`
    case 'format':
      return `must be ${FORMATS[String(p.format)] ?? `in ${p.format} format`}`
    case 'additionalProperties':
      return 'is not a field of this request'
    case 'pattern':
      return PATTERNS[String(p.pattern)] ?? 'is not in the documented format'
    default:
      return issue.message ?? 'is invalid'
  }
}

// Values the schema let through but PostgreSQL refuses (out of range, NUL bytes, too long).
const DATABASE_REFUSED_VALUE = new Set(['22003', '22P02', '22P05', '22021', '22001', '54000'])
// Deadlocks and serialization failures that outlived their retries: the database is too busy.
const DATABASE_BUSY = new Set(['40001', '40P01'])

/** Turns anything thrown into the error body of docs/design.md §3; internals never reach the client. */
export function toAppError(error: FastifyError & { code?: string }): AppError {
  if (error instanceof AppError) return error
  if (error.validation)
    return new AppError('VALIDATION_ERROR', { fieldErrors: fieldErrorsOf(error.validation as AjvIssue[], error.validationContext) })
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('INVALID_JSON')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', {
        fieldErrors: { 'Content-Type': ['send the body as JSON with Content-Type: application/json'] },
      })
  }
  if (error instanceof SyntaxError && error.statusCode === 400) return new AppError('INVALID_JSON')
  if (isDatabaseUnavailable(error) || (error.code && DATABASE_BUSY.has(error.code))) return new AppError('SERVICE_UNAVAILABLE')
  if (error.code && DATABASE_REFUSED_VALUE.has(error.code))
    return new AppError('VALIDATION_ERROR', { fieldErrors: { body: ['contains a value the service cannot store'] } })
  return new AppError('INTERNAL_ERROR')
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

export function registerErrorHandlers(app: FastifyInstance): void {
  // Said once with what to change; each request then answers as any 503.
  const hintLostStatements = lostStatementHint()
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error)
    hintLostStatements(error, request.log)
    // A switched-off provider is an expected refusal, not a fault: no stack trace.
    if (appError.code === 'PRODUCT_TEMPORARILY_UNAVAILABLE')
      request.log.info({ code: appError.code }, 'refused: product temporarily unavailable')
    // A lost dependency answers every request alike: one short warning each, the cause without a stack.
    else if (appError.code === 'SERVICE_UNAVAILABLE') request.log.warn({ cause: error.message }, 'unavailable: a dependency failed')
    else if (appError.status >= 500) request.log.error({ err: error }, 'request failed')
    if (appError.headers) reply.headers(appError.headers)
    const body: Record<string, unknown> = { message: appError.code }
    if (appError.fieldErrors) body.errors = appError.fieldErrors
    if (appError.data !== undefined) body.data = appError.data
    return reply.status(appError.status).send(body)
  })
  app.setNotFoundHandler((request, reply) => {
    // A known path asked with another method is a 405 naming the methods it takes (docs/design.md §4).
    const url = request.url.split('?')[0]
    const allowed = METHODS.filter((method) => method !== request.method && app.findRoute({ method, url }) !== null)
    if (allowed.length > 0)
      return reply
        .status(405)
        .header('allow', allowed.join(', '))
        .send({ message: 'METHOD_NOT_ALLOWED', errors: { method: [`must be one of: ${allowed.join(', ')}`] } })
    return reply.status(404).send({ message: 'NOT_FOUND' })
  })
}
