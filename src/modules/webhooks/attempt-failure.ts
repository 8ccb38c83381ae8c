/**
 * Why an attempt failed: `kind` is all a reseller is told in production (docs/design.md §8: "address not
 * allowed", "could not connect", "timeout", "HTTP 503", …); `detail` is the resolver's or the
 * socket's own text, which outside production helps a developer and in production would make
 * the test send a probe of the network.
 */
export type AttemptFailure = { kind: string; detail: string }

export const failure = (kind: string, detail = kind): AttemptFailure => ({ kind, detail })

/** What an attempt's `error` says, in the test send's answer and the delivery log alike. */
export const failureText = (f: AttemptFailure | null, production: boolean): string | null => (f ? (production ? f.kind : f.detail) : null)

/** A receiver's answer other than 2xx. */
export function answerFailure(code: number): AttemptFailure | null {
  if (code >= 200 && code < 300) return null
  return code >= 300 && code < 400 ? failure(`redirect (${code}) not followed`) : failure(`HTTP ${code}`)
}

const ADDRESS_NOT_ALLOWED = new Set(['EADDRNOTPUBLIC'])
const TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT'])
const CLOSED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'])
// OpenSSL's verification codes and Node's host name check: the receiver's certificate was refused.
const CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|HOSTNAME_MISMATCH/

/** A resolver's, socket's or TLS error as a failure; anything not recognised "could not connect". */
export function connectionFailure(error: unknown): AttemptFailure {
  const outer = error as Error & { code?: string; errors?: (Error & { code?: string })[] }
  // Happy Eyeballs rejects with every address's error together: the first names what happened.
  const first = outer.errors?.[0] ?? outer
  const code = first.code ?? outer.code ?? ''
  const detail = (first.message || outer.message || code || 'connection failed').slice(0, 300)
  if (ADDRESS_NOT_ALLOWED.has(code)) return failure('address not allowed', detail)
  if (TIMEOUTS.has(code)) return failure('timeout', detail)
  if (CLOSED.has(code)) return failure('connection closed', detail)
  if (CERTIFICATE.test(code)) return failure('certificate not accepted', detail)
  return failure('could not connect', detail)
}
