import crypto from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../errors.js'
import { isInRanges } from '../ip-ranges.js'
import { type AuthenticatedAccount, findAccountByKeyHash } from '../modules/accounts/index.js'
import type { AppContext } from '../context.js'
import { rateLimitHeaders, type RateDecision } from './rate-limit.js'
import { sha256Hex } from '../vault.js'

declare module 'fastify' {
  interface FastifyRequest {
    account: AuthenticatedAccount
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

/** `Authorization: Bearer <ADMIN_TOKEN>` (operator API and `/metrics`); wrong tokens count per address. */
export function adminAuth(ctx: AppContext) {
  return async function authenticateOperator(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization
    if (header === undefined || header === '') throw new AppError('UNAUTHORIZED')
    const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : ''
    if (!isAdminToken(ctx, token)) return refuseAuthentication(ctx, request, new AppError('UNAUTHORIZED'))
  }
}
