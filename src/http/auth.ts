import crypto from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type Actor, currentActing, runActing } from '../db/acting.js'
import { AppError } from '../errors.js'
import { isInRanges } from '../ip-ranges.js'
import { type AuthenticatedAccount, findAccountByKeyHash } from '../modules/accounts/index.js'
import type { AppContext } from '../context.js'
import { rateLimitHeaders, type RateDecision } from './rate-limit.js'
import { sha256Hex } from '../vault.js'
import { actorForToken, mayCall, ROLES } from '../modules/team/index.js'
import { DOC_KEY, type OperationDoc } from './operation.js'

declare module 'fastify' {
  interface FastifyRequest {
    account: AuthenticatedAccount
    /** Who calls an operator route: a person, or the admin token acting as an owner. */
    operator: Actor
  }
  interface FastifyContextConfig {
    /** The route's operation id, the key of its access rule (modules/team/roles.ts) and its audit action. */
    operationId?: string
  }
}

const invalidKey = (sentence: string) => new AppError('INVALID_API_KEY', { fieldErrors: { 'X-APIKEY': [sentence] } })
const MISSING_KEY = 'missing: send your API key in the X-APIKEY header'
const KEY_IN_AUTHORIZATION = 'missing: send your API key in the X-APIKEY header, not in Authorization'
const UNKNOWN_KEY = 'unknown or revoked: check the key, or ask your operator for a new one'

const tooManyRequests = (decision: RateDecision) =>
  new AppError('TOO_MANY_REQUESTS', { headers: { 'retry-after': String(decision.retryAfterSeconds), ...rateLimitHeaders(decision) } })

/**
 * Counts a wrong secret (API key, admin token, console sign-in, gateway signature) against the
 * caller's address (docs/design.md §4). Answers the 429 to throw once the address is past the limit, so
 * guessing is bounded on every surface while a right secret from the same address is still served.
 */
export async function countFailedAuthentication(ctx: AppContext, request: FastifyRequest): Promise<AppError | undefined> {
  const decision = await ctx.authFailures?.hit(request.ip, request.log)
  return decision && !decision.allowed ? tooManyRequests(decision) : undefined
}

/** Throws `refusal`, or TOO_MANY_REQUESTS when the caller's address is past its failed-authentication limit. */
export async function refuseAuthentication(ctx: AppContext, request: FastifyRequest, refusal: AppError): Promise<never> {
  throw (await countFailedAuthentication(ctx, request)) ?? refusal
}

/** X-APIKEY → account; then the allow-list, suspension and the per-key rate limit (docs/design.md §4, §12). */
export function resellerAuth(ctx: AppContext) {
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const key = request.headers['x-apikey']
    // A missing header is a mistake, not a guess: it is not counted.
    if (typeof key !== 'string' || key.length === 0) throw invalidKey(request.headers.authorization ? KEY_IN_AUTHORIZATION : MISSING_KEY)
    if (key.length > 200) return refuseAuthentication(ctx, request, invalidKey(UNKNOWN_KEY))
    const keyHash = sha256Hex(key)
    let account = ctx.authCache.get(keyHash)
    if (!account) {
      account = await findAccountByKeyHash(ctx.prepared, keyHash)
      if (!account) return refuseAuthentication(ctx, request, invalidKey(UNKNOWN_KEY))
      ctx.authCache.set(keyHash, account)
    }
    if (account.ip_allowlist.length > 0 && !isInRanges(request.ip, account.ip_allowlist)) throw new AppError('INVALID_IP')
    if (account.status === 'suspended') throw new AppError('THE_ACCOUNT_HAS_BEEN_SUSPENDED')
    if (ctx.rateLimiter) {
      // Counted per key by its hash: unique across processes and databases sharing one Redis.
      const decision = await ctx.rateLimiter.hit(keyHash.slice(0, 32), request.log)
      if (!decision.allowed) throw tooManyRequests(decision)
      reply.headers(rateLimitHeaders(decision))
    }
    request.account = account
  }
}

/** The admin token, compared in constant time (the operator API, `/metrics`, the console sign-in). */
export function isAdminToken(ctx: AppContext, given: string): boolean {
  const expected = ctx.config.adminToken
  if (!expected) return false
  // Digests of equal length: the comparison tells nothing, not even the token's length.
  const digest = (text: string) => crypto.createHash('sha256').update(text).digest()
  return crypto.timingSafeEqual(digest(given), digest(expected))
}

/** ADMIN_TOKEN acts as an owner by this name (docs/design.md §11d); the CLI on the database itself names itself. */
export const ADMIN_TOKEN_ACTOR: Actor = { id: null, name: 'admin token', role: 'owner' }

/** The operator a bearer token names: ADMIN_TOKEN, or a person's live `op_` token. */
async function operatorOf(ctx: AppContext, token: string): Promise<Actor | undefined> {
  if (isAdminToken(ctx, token)) return ctx.adminTokenActor ?? ADMIN_TOKEN_ACTOR
  return actorForToken(ctx.db, token)
}

/** `Authorization: Bearer <ADMIN_TOKEN or op_…>` (operator API and `/metrics`); wrong tokens count per address. */
export function adminAuth(ctx: AppContext) {
  return async function authenticateOperator(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization
    if (header === undefined || header === '') throw new AppError('UNAUTHORIZED')
    const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : ''
    const operator = await operatorOf(ctx, token)
    if (!operator) return refuseAuthentication(ctx, request, new AppError('UNAUTHORIZED'))
    request.operator = operator
  }
}

/** The roles an operation admits, as a refusal tells them. */
export function rolesAllowed(operationId: string | undefined) {
  return ROLES.filter((role) => mayCall(role, operationId))
}

/**
 * Runs each request of an operator scope (the admin API, the console) inside its acting store
 * (db/acting.ts), and keeps each route's operation id in its config. Added before the scope's routes.
 */
export function actingScope(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const doc = (route.schema as Record<string, OperationDoc | undefined> | undefined)?.[DOC_KEY]
    if (doc && route.config?.operationId === undefined) route.config = { ...route.config, operationId: doc.operationId }
  })
  app.addHook('onRequest', (request, _reply, done) => runActing({ clientIp: request.ip, requestId: request.id }, done))
  // Whatever the request left running (a timer, a kicked pass) writes as nobody once it is answered.
  app.addHook('onResponse', async () => {
    const store = currentActing()
    if (store) store.action = undefined
  })
}

/**
 * After authentication: the operator's role must admit the route's operation (403 FORBIDDEN_FOR_ROLE,
 * nothing done); a write then names itself, so the audit triggers log every row it changes.
 */
export async function authorizeOperator(request: FastifyRequest): Promise<void> {
  const operationId = request.routeOptions.config.operationId
  const { operator } = request
  if (!mayCall(operator.role, operationId)) {
    throw new AppError('FORBIDDEN_FOR_ROLE', { data: { role: operator.role, allowed: rolesAllowed(operationId) } })
  }
  const store = currentActing()
  if (!store) return
  store.actor = operator
  if (request.method !== 'GET' && request.method !== 'HEAD') store.action = operationId
}
