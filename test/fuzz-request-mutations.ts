import { ADMIN_TOKEN } from './app.js'
import type { SentRequest } from './house-shape.js'
import { type Param, type Schema } from './openapi.js'
import { NASTY_STRINGS, chance, huge, pick, uniform, type Gen } from './fuzz-values.js'
import { assemble, encodeSegment, strangerAddress, type Draft } from './fuzz-draft.js'

/** Values a query string or path segment parses to nothing valid for the schema, decided by the schema alone. */
function definitelyInvalid(g: Gen, p: Param): string | undefined {
  const s = p.schema
  const types = [s.type, ...(s.anyOf ?? []).map((b: Schema) => b.type)].flat()
  if (types.includes('integer') && !types.includes('string')) {
    const candidates = ['abc', '1.5', 'NaN', 'true', '9007199254740993', 'Infinity', '1e400', '-Infinity']
    if ((s.minimum ?? -Infinity) >= 0) candidates.push('-5', String((s.minimum ?? 0) - 1))
    if (s.maximum !== undefined && s.maximum < 1e9) candidates.push(String(s.maximum + 1))
    return pick(g, candidates)
  }
  if (s.enum && types.every((t) => t === 'string')) {
    // The first value in the other case: an enum of capitals (CR, DB) is not changed by upper-casing it.
    const first: string = s.enum[0]
    const otherCase = first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase()
    return pick(g, ['bogus', `${first} `, ...(s.enum.includes(otherCase) ? [] : [otherCase])])
  }
  if (s.format === 'date-time')
    return pick(g, ['2026-02-30T00:00:00Z', '2026-01-01T24:00:01Z', '2026-01-01', 'yesterday', '2026-01-01T00:00:00+25:00'])
  if (s.type === 'string' && s.maxLength !== undefined && s.maxLength < 2048 && !s.format && !s.pattern) return 'z'.repeat(s.maxLength + 1)
  return undefined
}

// Well-formed enough for a date-time check, yet at the edges of what a database or Date accepts.
const DATE_EDGES = [
  '2026-06-30T23:59:60Z',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '1969-12-31T23:59:59.999999999Z',
  '2026-01-01T00:00:00.1234567890123Z',
  '2026-01-01T00:00:00-00:00',
  '2026-01-01t00:00:00z',
  '2026-01-01 00:00:00Z',
  '4714-11-24T00:00:00Z',
  '294277-01-01T00:00:00Z',
]
const ODD_SEGMENTS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '0x1A',
  '00001',
  ' 1',
  '9007199254740993',
  '99999999999999999999999',
  'abc',
  'null',
  'undefined',
  '%00',
  'a%00b',
  '%20',
  '%2F',
  '..',
  '%2e%2e',
  '+',
  '%F0%9F%98%80',
  '%E2%80%AE',
  'LCK-%00',
  '%25',
  "'%20OR%201=1",
]

/** A path or query parameter replaced by something odd; `undefined` when the route has none. */
export function mutateParam(g: Gen, d: Draft): SentRequest | undefined {
  const params = d.op.params.filter((p) => p.in === 'path' || p.in === 'query')
  if (!params.length) return undefined
  const p = pick(g, params)
  const invalid = chance(g, 0.5) ? definitelyInvalid(g, p) : undefined
  const odd =
    p.schema.format === 'date-time' && chance(g, 0.7)
      ? pick(g, DATE_EDGES)
      : chance(g, 0.5)
        ? pick(g, ODD_SEGMENTS)
        : pick(g, NASTY_STRINGS)
  const value = invalid ?? odd
  const expect = invalid !== undefined ? { statuses: [422], codes: ['VALIDATION_ERROR'], field: p.name } : undefined
  if (p.in === 'path') {
    const encoded = invalid !== undefined || chance(g, 0.5)
    const rawPath = d.op.path.replace(/\{(\w+)\}/g, (_m, name) =>
      name === p.name ? (encoded ? encodeSegment(value) : value) : encodeSegment(d.path[name]),
    )
    // A raw dot segment climbs out of the route (`/resellers/../audit` is `/audit`): its answer is another route's.
    const rerouted = /\/(\.|%2e){1,2}(\/|$)/i.test(rawPath)
    return assemble(d, `param:${p.name}${encoded ? '' : ' raw'}`, { rawPath, expect, ...(rerouted && { rerouted }) })
  }
  const query: [string, string][] = [...d.query.filter(([k]) => k !== p.name), [p.name, value]]
  if (chance(g, 0.2)) query.push([p.name, value], [pick(g, ['__proto__[x]', 'constructor', 'foo', 'page[]', '']), '1'])
  return assemble({ ...d, query }, `query:${p.name}`, { expect: query.filter(([k]) => k === p.name).length === 1 ? expect : undefined })
}

const BAD_PERCENT = ['%', '%zz', '%E0%A4%A', '%ED%A0%80', '%C0%AE', '%FF', '%%', '%u0041', '%0', '%G1']

/** Odd URLs: bad percent-encoding, NUL, very long segments, dot segments, doubled slashes, case. */
export function oddPath(g: Gen, d: Draft): SentRequest {
  const base = d.op.path.replace(/\{(\w+)\}/g, (_m, name) => encodeSegment(d.path[name]))
  const params = [...d.op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
  const kind = uniform(g, 6)
  const replaceParam = (value: string) =>
    params.length
      ? d.op.path.replace(/\{(\w+)\}/g, (_m, name) => (name === params[0] ? value : encodeSegment(d.path[name])))
      : `${base}/${value}`
  switch (kind) {
    case 0:
      return assemble(d, 'path:bad-percent', { rawPath: replaceParam(`${d.path[params[0]] ?? 'x'}${pick(g, BAD_PERCENT)}`) })
    case 1:
      return assemble(d, 'path:nul', { rawPath: replaceParam(pick(g, ['%00', 'a%00', '%00%00', '1%00'])) })
    case 2: {
      const n = pick(g, [2_049, 3_000, 10_000, 60_000])
      return assemble(d, `path:long-${n}`, { rawPath: replaceParam(huge(n)) })
    }
    case 3:
      return assemble(d, 'path:dots', {
        rerouted: true,
        rawPath: pick(g, [
          `${base}/..`,
          `${base}/%2e%2e/balance`,
          base.replace('/v1/', '/v1/./'),
          base.replace('/v1/', '/v1/../v1/'),
          `${base}/.`,
        ]),
      })
    case 4:
      return assemble(d, 'path:slashes', {
        rerouted: true,
        rawPath: pick(g, [`${base}/`, base.replace('/v1/', '/v1//'), `/${base}`, `${base}//`, base.replace(/\//g, '%2F')]),
      })
    case 5:
      return assemble(d, 'path:case', {
        rerouted: true,
        rawPath: pick(g, [
          base.toUpperCase(),
          base.replace('api', 'API'),
          `${base};jsessionid=1`,
          `${base}#frag`,
          `${base}?`,
          `${base}?&&&=&`,
        ]),
      })
    default:
      return assemble(d, 'path:unicode', { rawPath: replaceParam(pick(g, ['é', '😀', 'ﷺ', '\u202e', 'ı', 'Ⅻ', '٣'])) })
  }
}

/** Missing, wrong, foreign or malformed credentials. */
export function badAuth(g: Gen, d: Draft): SentRequest {
  const reseller = d.op.audience === 'reseller'
  const token = pick(g, [
    '',
    ' ',
    'rk_' + '0'.repeat(64),
    'nope',
    'x'.repeat(201),
    'x'.repeat(5000),
    `Bearer ${ADMIN_TOKEN}`,
    'rk_é',
    reseller ? ADMIN_TOKEN : ADMIN_TOKEN.slice(1),
  ])
  const headers = pick<Record<string, string>>(g, [
    {},
    reseller ? { 'x-apikey': token } : { authorization: `Bearer ${token}` },
    reseller ? { authorization: `Bearer ${ADMIN_TOKEN}` } : { 'x-apikey': 'rk_x' },
    reseller ? { 'X-APIKEY': token } : { authorization: `bearer ${ADMIN_TOKEN}` },
    reseller ? { 'x-api-key': d.actor.headers['x-apikey'] } : { authorization: `Bearer  ${ADMIN_TOKEN}` },
    reseller ? { apikey: d.actor.headers['x-apikey'] } : { authorization: ADMIN_TOKEN },
  ])
  const req = assemble({ ...d, actor: { headers } }, 'auth:bad', { remoteAddress: strangerAddress(g) })
  req.expect = { statuses: [401, 429], codes: [reseller ? 'INVALID_API_KEY' : 'UNAUTHORIZED', 'TOO_MANY_REQUESTS'] }
  return req
}

/** Odd but legal headers around a valid request: none of them may change the answer's shape. */
export function oddHeaders(g: Gen, d: Draft): SentRequest {
  const req = assemble(d, 'headers:odd')
  const extra = pick<Record<string, string>>(g, [
    { accept: 'text/html' },
    { accept: 'application/xml;q=1, */*;q=0' },
    { 'content-type': 'application/json' },
    { 'x-forwarded-for': "1.2.3.4, ' OR 1=1, ::ffff:999.1.1.1" },
    { 'accept-encoding': 'gzip, br, zstd, x'.repeat(50) },
    { 'content-encoding': 'gzip' },
    { 'content-encoding': 'br' },
    { 'x-http-method-override': 'DELETE' },
    { 'x-apikey': `${d.actor.headers['x-apikey'] ?? ''}, rk_other` },
    { host: 'evil.example:1' },
    { 'if-none-match': '*' },
    { expect: '100-continue' },
  ])
  req.kind = `headers:${Object.keys(extra)[0]}`
  req.headers = { ...req.headers, ...extra }
  if ('x-apikey' in extra) req.remoteAddress = strangerAddress(g)
  return req
}
