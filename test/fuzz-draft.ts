import type { SentRequest } from './house-shape.js'
import { isObject, verdict, type Operation } from './openapi.js'
import { asParsed, toJsonText, uniform, type Gen } from './fuzz-values.js'

/** A request taking shape: whose it is, its path and query values, its body. */
export type Actor = { headers: Record<string, string>; accountId?: number }
export type Draft = {
  op: Operation
  actor: Actor
  path: Record<string, string>
  query: [string, string][]
  body?: unknown
  chosen: Record<string, unknown>
}

/** encodeURIComponent, except that a lone surrogate is sent as its WTF-8 bytes (%ED%A0%80) instead of throwing. */
export function encodeSegment(s: string): string {
  return [...s]
    .map((c) => {
      const unit = c.charCodeAt(0)
      if (c.length === 1 && unit >= 0xd800 && unit <= 0xdfff)
        return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
          .map((b) => `%${b.toString(16).toUpperCase()}`)
          .join('')
      return encodeURIComponent(c)
    })
    .join('')
}
// Requests meant to fail authentication come from addresses of their own: failed logins may be throttled per address.
export const strangerAddress = (g: Gen) => `10.${uniform(g, 255)}.${uniform(g, 255)}.${uniform(g, 253) + 1}`

export function assemble(d: Draft, kind: string, over: Partial<SentRequest> & { rawPath?: string } = {}): SentRequest {
  const path = over.rawPath ?? d.op.path.replace(/\{(\w+)\}/g, (_m, name) => encodeSegment(d.path[name]))
  const query = d.query.length ? `?${new URLSearchParams(d.query).toString()}` : ''
  const headers: Record<string, string> = { ...d.actor.headers }
  let payload: string | undefined
  if (d.body !== undefined) {
    payload = toJsonText(d.body)
    headers['content-type'] = 'application/json'
  }
  const parsed = d.body === undefined ? undefined : asParsed(d.body)
  const known = d.op.body?.properties ?? {}
  const patch =
    d.op.method === 'PATCH' && isObject(parsed) && verdict(d.op.body, parsed) === 'valid'
      ? Object.fromEntries(Object.entries(parsed).filter(([k]) => k in known))
      : undefined
  const req: SentRequest = { op: d.op, kind, method: d.op.method, url: path + query, headers, payload, patch, ...over }
  return req
}

/**
 * A URL that routes as written: every escape decodes, no NUL, no segment over the router's limit.
 * Only then is the answer decided by the contract (auth → params → body); otherwise any house-shaped 4xx will do.
 */
function routesCleanly(url: string): boolean {
  const path = url.split('?')[0]
  try {
    return !/%00|\u0000/.test(path) && path.split('/').every((s) => decodeURIComponent(s) !== undefined && s.length <= 2048)
  } catch {
    return false
  }
}

/** Drops an expectation the URL itself could pre-empt. */
export function settle(req: SentRequest): SentRequest {
  if (req.expect && !routesCleanly(req.url)) delete req.expect
  return req
}

export const fieldPath = (path: string[]) => path.join('.')

/** Fields the 2xx answer carries (`balance`, `id`, `created_at`): what a read-edit-write-back client sends back. */
export function answerFields(op: Operation): string[] {
  const ok = Object.entries(op.responses).find(([status]) => status.startsWith('2'))?.[1]
  return Object.keys(ok?.properties?.data?.properties ?? {})
}
