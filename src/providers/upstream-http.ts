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
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': isJson ? 'application/json' : 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: isJson ? JSON.stringify(body.json) : new URLSearchParams(body.form).toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await res.text()
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = undefined
    }
    return { kind: 'answer', status: res.status, body: parsed }
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } }
    const refused = e.cause?.code === 'ECONNREFUSED'
    const reason =
      e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : refused ? 'connection refused' : (e.cause?.code ?? e.message)
    return { kind: 'unreachable', refused, reason }
  }
}

/** What the service needs of a provider row: where it is and how it signs in (key decrypted). */
export type ProviderAccount = { code: string; baseUrl: string; username: string; apiKey: string }

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
export const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined)
