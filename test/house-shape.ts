import { ERROR_CODES } from '../src/errors.js'
import { isObject, verdict, type Operation } from './openapi.js'
import { HUGE_MARK } from './fuzz-values.js'

/** One request as sent, with what the harness knows it must answer. */
export type SentRequest = {
  op: Operation
  /** How it was made: `valid`, `body:odd carts.0.quantity`, `path:bad-percent`, … */
  kind: string
  method: string
  url: string
  headers: Record<string, string>
  payload?: string
  remoteAddress?: string
  /** Set when the outcome is decided by the contract alone (docs/design.md §3, §4). */
  expect?: { statuses: number[]; codes: string[]; field?: string }
  /** Unknown fields sent (with distinctive values): never written anywhere (docs/design.md §3, rule 11). */
  extras?: { key: string; value: unknown }[]
  /** A PATCH's valid top-level fields: the answer shows what was stored. */
  patch?: Record<string, unknown>
  /** An odd path that may route elsewhere (dot segments, case): the operation's 2xx schema does not apply. */
  rerouted?: boolean
}
export type Answer = { statusCode: number; headers: Record<string, unknown>; body: string }
export type Violation = { check: string; detail: string }

// Derived in the answer, not stored as sent: stock is what is available now (stock minus locks).
const DERIVED_ON_READ = new Set(['stock'])

/** The checks every answer must pass: no 5xx, the house error shape and its status, the spec's 2xx shapes. */
export function checkAnswer(req: SentRequest, res: Answer): Violation[] {
  const out: Violation[] = []
  const fail = (check: string, detail = '') => out.push({ check, detail })
  // A success the operation declares as text/csv too: a header row of column names, then its lines.
  if (res.statusCode === 200 && String(res.headers['content-type'] ?? '').startsWith('text/csv')) {
    if (!req.op.csv) fail('text/csv from an operation that declares only JSON', req.op.id)
    else if (!/^[a-z_]+(,[a-z_]+)*\r\n/.test(res.body)) fail('CSV without its header row', res.body.slice(0, 200))
    return out
  }
  let body: unknown
  try {
    body = JSON.parse(res.body)
  } catch {
    fail('body is not JSON', res.body.slice(0, 200))
    return out
  }
  if (!String(res.headers['content-type'] ?? '').startsWith('application/json'))
    fail('content-type is not application/json', String(res.headers['content-type']))
  if (!isObject(body)) {
    fail('body is not a JSON object', res.body.slice(0, 200))
    return out
  }
  const status = res.statusCode
  const message = body.message
  // A supplier sync reads the provider's list there and then, as a bill's inquiry (and a payment without one) asks for
  // the bill: a provider that does not answer (the fuzz points base_url at a dead port) is a lost dependency (docs/design.md §11b, §5c).
  const upstreamLost =
    message === 'SERVICE_UNAVAILABLE' &&
    req.op.method === 'POST' &&
    (req.op.path.endsWith('/providers/{code}/sync') || req.op.path.endsWith('/trx/tagihan') || req.op.path.endsWith('/trx/tagihan/inquiry'))
  if (status >= 500 && !(status === 503 && (message === 'PRODUCT_TEMPORARILY_UNAVAILABLE' || upstreamLost)))
    fail(`${status} answer`, res.body.slice(0, 300))
  if (status >= 400) checkError(req, status, body, res.body, fail)
  else if (status >= 200 && status < 300) checkSuccess(req, status, body, fail)
  else fail(`unexpected status ${status}`)

  if (req.expect) {
    const { statuses, codes, field } = req.expect
    // Authentication comes first: a valid key of a suspended or walled-off account is refused before anything is validated.
    const authFirst =
      req.op.audience === 'reseller' &&
      !req.kind.startsWith('auth:') &&
      ['THE_ACCOUNT_HAS_BEEN_SUSPENDED', 'INVALID_IP', 'TOO_MANY_REQUESTS'].includes(String(message))
    if (authFirst) return out
    if (!statuses.includes(status) || !codes.includes(String(message)))
      fail(`expected ${statuses.join('|')} ${codes.join('|')}`, `got ${status} ${String(message)}`)
    else if (field !== undefined) {
      const named = Object.keys(isObject(body.errors) ? body.errors : {})
      if (!named.some((k) => k === field || k.startsWith(`${field}.`)))
        fail('VALIDATION_ERROR does not name the field', `${field} not in ${JSON.stringify(named)}`)
    }
  }
  return out
}

function checkError(req: SentRequest, status: number, body: Record<string, unknown>, text: string, fail: (c: string, d?: string) => void) {
  const extra = Object.keys(body).filter((k) => !['message', 'errors', 'data'].includes(k))
  if (extra.length) fail('foreign error shape', text.slice(0, 200))
  const code = body.message
  if (typeof code !== 'string' || !(code in ERROR_CODES)) return fail('error code not in ERROR_CODES', String(code))
  if (ERROR_CODES[code as keyof typeof ERROR_CODES] !== status) fail(`status differs from ERROR_CODES[${code}]`, String(status))
  if (body.errors !== undefined) {
    const errors = body.errors
    if (!isObject(errors) || !Object.values(errors).every((v) => Array.isArray(v) && v.every((s) => typeof s === 'string')))
      fail('errors is not {field: [sentence]}')
    // `errors` names the field at fault (docs/design.md §4): `body` only when the body as a whole is wrong, never for
    // a body-less request (GET /v1/trx/%00 blamed the body) or a JSON object whose one field the database refused.
    // A rerouted request (dot segments) may reach a route that takes a body, and rightly be told it has none.
    if (isObject(errors) && 'body' in errors && ((!req.op.body && !req.rerouted) || sentJsonObject(req)))
      fail('errors name the body, not the field at fault', JSON.stringify(errors).slice(0, 200))
  }
  // `data` only where a code carries the numbers to fix it (docs/design.md §4).
  if (body.data !== undefined && !CODES_WITH_DATA.has(code)) fail('data on an error whose code carries none', code)
  if (text.includes(HUGE_MARK) || text.length > 16_384) fail('error echoes a huge input back', `${text.length} chars`)
}

const CODES_WITH_DATA = new Set([
  'REF_ID_ALREADY_EXIST',
  'BALANCE_IS_INSUFFICIENT',
  'OUT_OF_STOCK',
  'LOCK_MISMATCH',
  'BILL_AMOUNT_CHANGED',
  'INQUIRY_ALREADY_USED',
  'PRICE_ABOVE_MAX',
])

function sentJsonObject(req: SentRequest): boolean {
  if (req.headers['content-type'] !== 'application/json' || req.payload === undefined) return false
  try {
    return isObject(JSON.parse(req.payload))
  } catch {
    return false
  }
}

function checkSuccess(req: SentRequest, status: number, body: Record<string, unknown>, fail: (c: string, d?: string) => void) {
  const schema = req.op.responses[String(status)]
  if (req.rerouted) return
  if (!(String(status) in req.op.responses)) return fail(`${status} not declared for the route`)
  if (verdict(schema, body) === 'invalid') fail(`${status} body does not match the declared schema`, JSON.stringify(body).slice(0, 200))
  const data = body.data
  if (!isObject(data)) return
  for (const { key, value } of req.extras ?? []) {
    if (key in data && sameValue(data[key], value)) fail('an unknown field was written', `${key}=${JSON.stringify(value)}`)
  }
  // A string may be normalised (a trailing slash trimmed) into another valid value; anything else reads back as sent.
  for (const [key, sent] of Object.entries(req.patch ?? {})) {
    const schema = req.op.body?.properties?.[key]
    // Structured fields read back with defaults filled in (required_fields: null shows the process's own).
    const structured = [schema?.type, ...(schema?.anyOf ?? []).map((b: { type?: string }) => b.type)].some(
      (t) => t === 'object' || t === 'array',
    )
    if (DERIVED_ON_READ.has(key) || structured || !(key in data) || sameValue(data[key], sent)) continue
    if (typeof sent !== 'string' || verdict(schema, data[key]) === 'invalid') {
      fail('a PATCH stored another value than it was sent', `${key}: sent ${JSON.stringify(sent)}, reads ${JSON.stringify(data[key])}`)
    }
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  if (JSON.stringify(a) === JSON.stringify(b)) return true
  const time = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v) ? Date.parse(v) : NaN)
  return !Number.isNaN(time(a)) && time(a) === time(b)
}

/** Groups violations by what went wrong where, keeping the shortest reproduction of each. */
export class FailureLog {
  readonly groups = new Map<string, { count: number; req: SentRequest; res: Answer; detail: string }>()
  add(req: SentRequest, res: Answer, violations: Violation[]) {
    for (const v of violations) {
      const key = `${req.op.id} | ${v.check} | ${res.statusCode}`
      const seen = this.groups.get(key)
      const size = (r: SentRequest) => r.url.length + (r.payload?.length ?? 0)
      if (!seen || size(req) < size(seen.req)) this.groups.set(key, { count: (seen?.count ?? 0) + 1, req, res, detail: v.detail })
      else seen.count++
    }
  }
  report(): string {
    const short = (s: string) => s.replace(/(.)\1{40,}/gu, (m, c) => `${c}×${[...m].length}`).slice(0, 400)
    return (
      [...this.groups]
        // 5xx first: they are the ones that matter most.
        .sort(([a, x], [b, y]) => Number(y.res.statusCode >= 500) - Number(x.res.statusCode >= 500) || a.localeCompare(b))
        .map(([key, g]) =>
          [
            `✗ ${key} (×${g.count}) ${g.detail ? `— ${short(g.detail)}` : ''}`,
            `    ${g.req.method} ${short(g.req.url)}  [${g.req.kind}]`,
            `    headers ${short(JSON.stringify(g.req.headers))}${g.req.payload !== undefined ? `\n    body ${short(JSON.stringify(g.req.payload))}` : ''}`,
            `    → ${g.res.statusCode} ${short(g.res.body)}`,
          ].join('\n'),
        )
        .join('\n')
    )
  }
}
