import { Agent, request, type Dispatcher } from 'undici'

/**
 * One call to an upstream with a deadline. Never throws: the caller decides what an answer means.
 * `refused` is a connection that was never made (ECONNREFUSED): nothing reached the upstream, so
 * sending again cannot place a second order. Any other failure may have reached it.
 */
export type UpstreamReply = { kind: 'answer'; status: number; body: unknown } | { kind: 'unreachable'; refused: boolean; reason: string }

// What a request sent on a kept-alive connection the upstream had just closed as idle fails with,
// before any answer: a reset, "other side closed", or a write after the close.
const CONNECTION_LOST = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE'])

const codeOf = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } }
  return e.code ?? e.cause?.code
}

/**
 * `read`: the call only asks (a price list, a balance, a status), so one that lost its connection
 * before any answer is sent once more on a new connection, within the same deadline. A call that may
 * place an order is never sent again here: the upstream may have taken the first.
 */
export async function postUpstream(
  url: string,
  body: { json: object } | { form: Record<string, string> },
  timeoutMs: number,
  options: { read?: true } = {},
): Promise<UpstreamReply> {
  const isJson = 'json' in body
  const deadline = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    deadline.abort()
  }, timeoutMs)
  // undici's request rather than fetch: a third of the worker's CPU per upstream request went to
  // fetch's streams and signals (docs/performance.md). Keep-alive connections of undici's global agent.
  const send = (dispatcher?: Dispatcher) =>
    request(url, {
      method: 'POST',
      headers: { 'content-type': isJson ? 'application/json' : 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: isJson ? JSON.stringify(body.json) : new URLSearchParams(body.form).toString(),
      signal: deadline.signal,
      ...(dispatcher && { dispatcher }),
    })
  let fresh: Agent | undefined
  try {
    let res: Dispatcher.ResponseData
    try {
      res = await send()
    } catch (error) {
      if (!options.read || timedOut || !CONNECTION_LOST.has(codeOf(error) ?? '')) throw error
      // Its own agent: the shared pool may hold more connections the upstream closed the same way.
      fresh = new Agent()
      res = await send(fresh)
    }
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
    const code = codeOf(error)
    const refused = code === 'ECONNREFUSED'
    const reason = timedOut ? `no answer within ${timeoutMs} ms` : refused ? 'connection refused' : (code ?? (error as Error).message)
    return { kind: 'unreachable', refused, reason }
  } finally {
    clearTimeout(timer)
    fresh?.close().catch(() => undefined)
  }
}

/** What the service needs of a provider row: where it is and how it signs in (key decrypted). */
export type ProviderAccount = { code: string; baseUrl: string; username: string; apiKey: string }

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
export const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined)
