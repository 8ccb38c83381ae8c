import { request } from 'undici'

/**
 * One call to an upstream with a deadline. Never throws: the caller decides what an answer means.
 * `refused` is a connection that was never made (ECONNREFUSED): nothing reached the upstream, so
 * sending again cannot place a second order. Any other failure may have reached it.
 */
export type UpstreamReply = { kind: 'answer'; status: number; body: unknown } | { kind: 'unreachable'; refused: boolean; reason: string }

export async function postUpstream(
  url: string,
  body: { json: object } | { form: Record<string, string> },
  timeoutMs: number,
): Promise<UpstreamReply> {
  const isJson = 'json' in body
  const deadline = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    deadline.abort()
  }, timeoutMs)
  try {
    // undici's request rather than fetch: a third of the worker's CPU per upstream request went to
    // fetch's streams and signals (docs/performance.md). Keep-alive connections of undici's global agent.
    const res = await request(url, {
      method: 'POST',
      headers: { 'content-type': isJson ? 'application/json' : 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: isJson ? JSON.stringify(body.json) : new URLSearchParams(body.form).toString(),
      signal: deadline.signal,
    })
    const text = await res.body.text()
    // A redirect is never followed (nor was the request's fate told by it): as an unanswered call.
    if (res.statusCode >= 300 && res.statusCode < 400)
      return { kind: 'unreachable', refused: false, reason: `redirect (HTTP ${res.statusCode})` }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = undefined
    }
    return { kind: 'answer', status: res.statusCode, body: parsed }
  } catch (error) {
    const e = error as Error & { code?: string; cause?: { code?: string } }
    const code = e.code ?? e.cause?.code
    const refused = code === 'ECONNREFUSED'
    const reason = timedOut ? `no answer within ${timeoutMs} ms` : refused ? 'connection refused' : (code ?? e.message)
    return { kind: 'unreachable', refused, reason }
  } finally {
    clearTimeout(timer)
  }
}

/** What the service needs of a provider row: where it is and how it signs in (key decrypted). */
export type ProviderAccount = { code: string; baseUrl: string; username: string; apiKey: string }

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
export const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined)
