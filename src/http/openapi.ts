import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context.js'
import { ERROR_CODES, type ErrorCode } from '../errors.js'
import { adminAuth } from './auth.js'
import { ERROR_MEANINGS } from './error-meanings.js'
import { AUDIENCE_CODES, DOC_KEY, type Audience, type OperationDoc } from './operation.js'

type Json = Record<string, any>

// A route's codes under each status: these generic ones first, in this order, then its own as its doc lists them.
const GENERIC_FIRST: ErrorCode[] = [
  'INVALID_JSON',
  'BAD_REQUEST',
  'INVALID_API_KEY',
  'INVALID_IP',
  'UNAUTHORIZED',
  'THE_ACCOUNT_HAS_BEEN_SUSPENDED',
  'VALIDATION_ERROR',
  'TOO_MANY_REQUESTS',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
]

const TAGS = [
  { name: 'balance', description: 'Your balance, its ledger, and top-ups' },
  { name: 'catalog', description: 'What can be bought, with delta sync' },
  { name: 'transactions', description: 'Buying, and reading back what was bought' },
  { name: 'stock locks', description: 'Reserving stock before buying' },
  { name: 'webhooks', description: 'Callbacks on every order status change' },
  { name: 'gateway', description: 'What payment gateways call' },
  { name: 'operator', description: 'The operator API (Authorization: Bearer, with ADMIN_TOKEN or a person’s op_ token)' },
]

const EXAMPLE_BODIES: Partial<Record<ErrorCode, Json>> = {
  VALIDATION_ERROR: { message: 'VALIDATION_ERROR', errors: { per_page: ['must be ≤ 500'] } },
}

const header = (description: string) => ({ description, schema: { type: 'string' } })
const REQUEST_ID = { 'X-Request-Id': header('your X-Request-Id when sane, else a new id; quote it when asking about a request') }
const RATE_LIMIT = {
  'RateLimit-Limit': header('requests allowed per API key per minute'),
  'RateLimit-Remaining': header('requests left in this window'),
  'RateLimit-Reset': header('seconds until the window ends'),
}

function audienceOf(op: Json): Audience {
  const schemes = (op.security ?? []).flatMap((s: object) => Object.keys(s))
  return schemes.includes('apiKey') ? 'reseller' : schemes.includes('adminToken') ? 'operator' : 'public'
}

// What any route taking a JSON body can answer before its own checks: a body that is not JSON, or a request Node's parser refuses.
const BODY_CODES: ErrorCode[] = ['INVALID_JSON', 'BAD_REQUEST']

/** The codes a route answers, by status: its audience's, a JSON body's, and those its doc lists. */
function codesOfRoute(audience: Audience, doc: OperationDoc, takesJson: boolean): Map<number, ErrorCode[]> {
  const answered = new Set([...AUDIENCE_CODES[audience], ...(takesJson ? BODY_CODES : []), ...(doc.codes ?? [])])
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of new Set([...GENERIC_FIRST.filter((c) => answered.has(c)), ...answered])) {
    const status = ERROR_CODES[code]
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  return byStatus
}

function errorResponse(codes: ErrorCode[], doc: OperationDoc | undefined): Json {
  return {
    description: codes.map((c) => `\`${c}\`: ${ERROR_MEANINGS[c]}`).join('\n\n'),
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorBody' },
        examples: Object.fromEntries(
          codes.map((c) => [c, { summary: ERROR_MEANINGS[c], value: doc?.errorExamples?.[c] ?? EXAMPLE_BODIES[c] ?? { message: c } }]),
        ),
      },
    },
  }
}

/** Adds what TypeBox schemas cannot say: operation ids, descriptions, examples, and the error codes per status. */
export function enrichDocument(document: Json): Json {
  for (const item of Object.values<Json>(document.paths ?? {})) {
    for (const op of Object.values<Json>(item)) {
      // Every documented route's schema carries its doc (operation()); hidden ones never get here.
      const doc: OperationDoc | undefined = op[DOC_KEY]
      delete op[DOC_KEY]
      if (doc) {
        op.operationId = doc.operationId
        if (doc.description !== undefined) op.description = doc.description
      }
      const json = op.requestBody?.content?.['application/json']
      if (json && doc?.request !== undefined) json.example = doc.request
      for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
        if (Number(status) >= 400) continue
        response.description = doc?.returns ?? 'OK'
        const content = response.content?.['application/json']
        if (content && doc?.response !== undefined) content.example = doc.response
      }
      if (doc)
        for (const [status, codes] of codesOfRoute(audienceOf(op), doc, json !== undefined))
          op.responses[status] = errorResponse(codes, doc)
      const limited = audienceOf(op) === 'reseller'
      for (const [status, response] of Object.entries<Json>(op.responses))
        response.headers = { ...REQUEST_ID, ...(limited && ['200', '201', '429'].includes(status) ? RATE_LIMIT : {}) }
    }
  }
  const errorBody = document.components?.schemas?.ErrorBody
  if (errorBody) errorBody.examples = [{ message: 'TRX_NOT_FOUND' }, EXAMPLE_BODIES.VALIDATION_ERROR]
  document.tags = TAGS
  return document
}

/**
 * The document without the operator API: what production shows to anyone (docs/design.md §12). Paths,
 * the operator tag and the bearer scheme go; `document` is a copy of the app's own.
 */
export function resellerDocument(document: Json): Json {
  const paths: Json = {}
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    const kept = Object.fromEntries(Object.entries<Json>(item).filter(([, op]) => audienceOf(op) !== 'operator'))
    if (Object.keys(kept).length > 0) paths[path] = kept
  }
  const { adminToken: _operatorScheme, ...schemes } = document.components?.securitySchemes ?? {}
  return {
    ...document,
    info: { ...document.info, description: String(document.info?.description ?? '').replace(/; operator routes take [^.]*\./, '.') },
    paths,
    components: { ...document.components, securitySchemes: schemes },
    tags: (document.tags ?? []).filter((tag: Json) => tag.name !== 'operator'),
  }
}

export async function registerOpenApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(swagger, {
    // Shared schemas keep their own names in components (ErrorBody, not def-0).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Reseller Ordering Service API',
        version: '1.0.0',
        description:
          'Buy digital goods with a prepaid balance. Reseller routes take `X-APIKEY`; operator routes take `Authorization: Bearer <ADMIN_TOKEN>` or a person’s `op_…` token.\n\n' +
          'Every error answers `{"message": CODE, "errors"?: {field: [how to fix]}, "data"?: ...}`; each response below lists its codes. ' +
          'Every response carries `X-Request-Id` (yours echoed when you send one); reseller routes carry `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: ctx.config.publicUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-APIKEY' },
          adminToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'ADMIN_TOKEN (acts as an owner), or a person’s own `op_…` token (acts as them, with their role)',
          },
        },
      },
    },
    transformObject: (documentObject) => enrichDocument((documentObject as { openapiObject: Json }).openapiObject),
  })
  // "Try it out" keeps the API key across reloads.
  const production = ctx.config.appEnv === 'production'
  const shown = (document: Json) => (production ? resellerDocument(document) : document)
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { persistAuthorization: true, displayOperationId: true },
    transformSpecification: (document) => shown(document as Json),
  })
  // In production the operator API is documented only to the operator (the console links it too).
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => shown(app.swagger() as Json))
  app.get('/api/admin/openapi.json', { schema: { hide: true }, onRequest: adminAuth(ctx) }, async () => app.swagger())
  // Someone who opens the base URL finds the docs instead of a bare 404.
  const links = {
    message: 'OK',
    data: {
      docs: `${ctx.config.publicUrl}/api/docs`,
      openapi: `${ctx.config.publicUrl}/api/openapi.json`,
      api: `${ctx.config.publicUrl}/api/v1`,
    },
  }
  for (const url of ['/', '/api', '/api/v1']) app.get(url, { schema: { hide: true } }, async () => links)
}
