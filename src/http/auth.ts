import crypto from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../errors.js'
import { isInRanges } from '../ip-ranges.js'
import { findAccountByKeyHash, type AuthenticatedAccount } from '../modules/accounts/accounts.service.js'
import type { AppContext } from '../context.js'
import { rateLimitHeaders, type RateDecision } from './rate-limit.js'
import { sha256Hex } from '../vault.js'

declare module 'fastify' {
  interface FastifyRequest {
    account: AuthenticatedAccount
  }
}

const tooManyRequests = (decision: RateDecision) =>
  new AppError('TOO_MANY_REQUESTS', { headers: { 'retry-after': String(decision.retryAfterSeconds), ...rateLimitHeaders(decision) } })

/**
 * X-APIKEY → account; then the allow-list, suspension and the per-key rate limit (DESIGN §4, §12).
 * An address that sent too many unknown keys this minute is refused before the database is asked.
 */
export function resellerAuth(ctx: AppContext) {
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const key = request.headers['x-apikey']
    if (typeof key !== 'string' || key.length === 0 || key.length > 200) throw new AppError('INVALID_API_KEY')
    const keyHash = sha256Hex(key)
    let account = ctx.authCache.get(keyHash)
    if (!account) {
      const failures = await ctx.authFailures?.check(request.ip, request.log)
      if (failures && !failures.allowed) throw tooManyRequests(failures)
      account = await findAccountByKeyHash(ctx.prepared, keyHash)
      if (!account) {
        await ctx.authFailures?.hit(request.ip, request.log)
        throw new AppError('INVALID_API_KEY')
      }
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

/** `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time (operator API and `/metrics`). */
export function adminAuth(ctx: AppContext) {
  const expected = Buffer.from(`Bearer ${ctx.config.adminToken ?? ''}`)
  return async function authenticateOperator(request: FastifyRequest): Promise<void> {
    const given = Buffer.from(request.headers.authorization ?? '')
    const valid = ctx.config.adminToken && given.length === expected.length && crypto.timingSafeEqual(given, expected)
    if (!valid) throw new AppError('UNAUTHORIZED')
  }
}
