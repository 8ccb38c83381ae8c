import http from 'node:http'
import https from 'node:https'
import { performance } from 'node:perf_hooks'
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

/** POSTs signed webhook bodies: keep-alive, no redirects followed, a hard deadline per attempt. */
export function createTransport(options: TransportOptions): Transport {
  const lookup = guardedLookup(options.resolve ?? systemResolver, options.production)
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: SOCKETS_PER_HOST, lookup }),
    https: new https.Agent({ keepAlive: true, maxSockets: SOCKETS_PER_HOST, lookup }),
  }
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
      return new Promise<AttemptOutcome>((resolve) => {
        let settled = false
        const finish = (statusCode: number | null, error: string | null) => {
          if (settled) return
          settled = true
          resolve(outcome(statusCode, error))
        }
        const secure = url.protocol === 'https:'
        const req = (secure ? https : http).request(url, {
          method: 'POST',
          agent: secure ? agents.https : agents.http,
          headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        })
        const timer = setTimeout(() => {
          finish(null, `timeout after ${options.timeoutMs} ms`)
          req.destroy()
        }, options.timeoutMs)
        req.on('response', (res) => {
          const code = res.statusCode ?? 0
          finish(code, code >= 200 && code < 300 ? null : code >= 300 && code < 400 ? `redirect (${code}) not followed` : `HTTP ${code}`)
          // The receiver's body is never read, only drained so the connection can be reused.
          res.on('error', () => {})
          res.on('end', () => clearTimeout(timer))
          res.resume()
        })
        req.on('error', (error) => {
          clearTimeout(timer)
          finish(null, describe(error))
        })
        req.end(request.body)
      })
    },
    close() {
      agents.http.destroy()
      agents.https.destroy()
    },
  }
}

function describe(error: Error & { code?: string; errors?: Error[] }): string {
  const first = error.errors?.[0] ?? error
  return (first.message || error.code || 'connection failed').slice(0, 300)
}
