import { performance } from 'node:perf_hooks'
import { Agent } from 'undici'
import { guardedLookup, isNonPublicAddress, literalAddress, systemResolver, type Resolver } from './receiver-address.js'
import type { SignedRequest } from './signing.js'

/** One attempt as recorded: any 2xx is delivered; everything else carries an error. */
export type AttemptOutcome = { statusCode: number | null; durationMs: number; error: string | null }

export type Transport = { post(url: string, request: SignedRequest): Promise<AttemptOutcome>; close(): void }

export type TransportOptions = {
  /** APP_ENV=production: https only, and no non-public address at connect time (SSRF). */
  production: boolean
  timeoutMs: number
  /** Name resolution; tests inject one that answers what they need. */
  resolve?: Resolver
}

// Connections to one host (accounts may share one); beyond it requests wait inside their timeout.
const SOCKETS_PER_HOST = 256
// Of a receiver's answer only the status counts; past this much body the connection is dropped, not drained.
const DRAIN_LIMIT = 64 * 1024

/**
 * POSTs signed webhook bodies: keep-alive, no redirects followed, a hard deadline per attempt.
 * undici rather than node:http: 17 instead of 31 µs of CPU per request measured against a local receiver.
 */
export function createTransport(options: TransportOptions): Transport {
  const lookup = guardedLookup(options.resolve ?? systemResolver, options.production)
  // undici never follows a redirect unless asked to; its own timeouts give way to the deadline below.
  const agent = new Agent({
    connections: SOCKETS_PER_HOST,
    connect: { lookup, timeout: options.timeoutMs },
    headersTimeout: 0,
    bodyTimeout: 0,
  })
  return {
    async post(raw, request) {
      const started = performance.now()
      const outcome = (statusCode: number | null, error: string | null): AttemptOutcome => ({
        statusCode,
        durationMs: Math.round(performance.now() - started),
        error,
      })
      let url: URL
      try {
        url = new URL(raw)
      } catch {
        return outcome(null, 'invalid callback URL')
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return outcome(null, 'callback URL must use https')
      if (options.production && url.protocol !== 'https:') return outcome(null, 'callback URL must use https')
      // A literal address never goes through lookup, so it is checked here.
      const literal = literalAddress(url.hostname)
      if (options.production && literal && isNonPublicAddress(literal)) return outcome(null, `${literal} is not a public address`)
      const deadline = new AbortController()
      let timedOut = false
      const timer = setTimeout(() => {
        timedOut = true
        deadline.abort()
      }, options.timeoutMs)
      try {
        const { statusCode: code, body } = await agent.request({
          origin: url.origin,
          path: url.pathname + url.search,
          method: 'POST',
          headers: request.headers,
          body: request.body,
          signal: deadline.signal,
        })
        // The receiver's body is never read, only drained so the connection can be reused.
        body
          .dump({ limit: DRAIN_LIMIT })
          .catch(() => {})
          .finally(() => clearTimeout(timer))
        return outcome(
          code,
          code >= 200 && code < 300 ? null : code >= 300 && code < 400 ? `redirect (${code}) not followed` : `HTTP ${code}`,
        )
      } catch (error) {
        clearTimeout(timer)
        return outcome(null, timedOut ? `timeout after ${options.timeoutMs} ms` : describe(error as Error))
      }
    },
    close() {
      void agent.destroy()
    },
  }
}

function describe(error: Error & { code?: string; errors?: Error[] }): string {
  const first = error.errors?.[0] ?? error
  return (first.message || error.code || 'connection failed').slice(0, 300)
}
