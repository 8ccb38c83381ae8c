import fc from 'fast-check'
import { ADMIN_TOKEN } from './app.js'
import type { SentRequest } from './house-shape.js'
import { isObject, verdict, type Operation, type Param, type Schema } from './openapi.js'
import {
  NASTY_STRINGS,
  REMOVE,
  asParsed,
  chance,
  defineOwn,
  getAt,
  huge,
  locations,
  oddValue,
  pick,
  setAt,
  toJsonText,
  uniform,
  type Gen,
} from './fuzz-values.js'
import type { World } from './fuzz-world.js'
import { answerFields, assemble, encodeSegment, fieldPath, strangerAddress, type Draft } from './fuzz-draft.js'

// Each takes a valid draft and breaks one thing about it, saying what the contract then decides where it can.

/** A method the path does not have: the unknown-route 404 in the house shape. */
export function wrongMethod(g: Gen, d: Draft, ops: Operation[]): SentRequest {
  // A route with a parameter may own this path too (GET /item/{id} answers GET /item/validate).
  const owns = (o: Operation) =>
    new RegExp(`^${o.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`).test(d.op.path)
  const taken = new Set(ops.filter((o) => o.path === d.op.path || owns(o)).map((o) => o.method))
  const free = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const).filter((m) => !taken.has(m as Operation['method']))
  const req = assemble(d, 'method:wrong')
  req.method = pick(g, free)
  req.rerouted = true
  req.expect = { statuses: [404], codes: ['NOT_FOUND'] }
  return req
}

/** One field of a valid body made wrong, missing, odd or joined by an unknown neighbour. */
export function mutateBody(g: Gen, d: Draft, world: World): SentRequest {
  const baseValid = verdict(d.op.body, asParsed(d.body)) === 'valid'
  const places = locations(d.body, d.op.body).filter((l) => l.path.length > 0)
  const objects = locations(d.body, d.op.body).filter((l) => isObject(getAt(d.body, l.path)))
  const how = places.length ? pick(g, ['remove', 'odd', 'odd', 'null', 'extra', 'array'] as const) : 'extra'
  if (how === 'extra' && objects.length) {
    const at = pick(g, objects).path
    const writable =
      (
        getAt(
          d.op.body,
          at.flatMap((p) => ['properties', p]),
        ) as Schema | undefined
      )?.properties ?? {}
    const readOnly = at.length === 0 ? answerFields(d.op).filter((k) => !(k in writable)) : []
    const key =
      readOnly.length && chance(g, 0.5)
        ? pick(g, readOnly)
        : chance(g, 0.6)
          ? pick(g, world.columns)
          : pick(g, [
              '__proto__',
              'constructor',
              'prototype',
              '',
              ' ',
              'a'.repeat(300),
              'carts[0]',
              'REF_ID',
              'ref_id ',
              '\u0000',
              '$where',
            ])
    const value = pick(g, [777_777_777, 'FZX-extra', '2000-01-01T00:00:00Z', true, { nested: 1 }])
    // Only a value nobody else would answer proves the field was written.
    const distinctive = typeof value === 'number' || typeof value === 'string'
    const target = { ...(getAt(d.body, at) as Record<string, unknown>) }
    // A column name may also be an optional field of this body: then it is no unknown field.
    if (key in target || key in writable) return assemble(d, 'valid')
    defineOwn(target, key, value)
    const body = setAt(d.body, at, target)
    return finishBody(
      d,
      body,
      `body:extra ${fieldPath([...at, key])}`,
      baseValid,
      [...at, key],
      at.length === 0 && distinctive ? [{ key, value }] : [],
    )
  }
  const place = pick(g, places)
  const current = getAt(d.body, place.path)
  let value: unknown
  switch (how) {
    case 'remove':
      value = REMOVE
      break
    case 'null':
      value = null
      break
    case 'array':
      value = Array.isArray(current) ? pick(g, [[], Array(51).fill(current[0]), [current], [...current, ...current]]) : [current]
      break
    default:
      value = oddValue(g)
  }
  // Removing an array element shifts the rest: what turns wrong is the array itself (minItems).
  const blamed = value === REMOVE && /^\d+$/.test(place.path.at(-1)!) ? place.path.slice(0, -1) : place.path
  return finishBody(d, setAt(d.body, place.path, value), `body:${how} ${fieldPath(place.path)}`, baseValid, blamed, [])
}

function finishBody(
  d: Draft,
  body: unknown,
  kind: string,
  baseValid: boolean,
  path: string[],
  extras: { key: string; value: unknown }[],
): SentRequest {
  const req = assemble({ ...d, body }, kind, { extras })
  if (baseValid && req.payload!.length < 60_000 && verdict(d.op.body, asParsed(body)) === 'invalid') {
    req.expect = { statuses: [422], codes: ['VALIDATION_ERROR'], field: fieldPath(path) }
  }
  return req
}

const BROKEN_JSON = [
  '{',
  '{"a":',
  '[1,',
  "{'a':1}",
  '{"a":1,}',
  'nul',
  'NaN',
  '{"a":01}',
  '{"a":"\\x41"}',
  '{"a":1}}',
  '{"a":1}{"b":2}',
  '\u0000',
  '{"a":"\t"}',
  '{"a":"\\ud800"',
  '{"ref_id":"x" "carts":[]}',
  '{"a":1e}',
  '{"a":-}',
  '{"a":.5}',
  '{"a":+1}',
  '{"a":0x10}',
  '{"a":Infinity}',
  '{a:1}',
  '"unterminated',
  '[',
  ']',
  '}',
]
const FOREIGN_TYPES = ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz']
const ODD_JSON_TYPES = [
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/JSON',
  'Application/Json; charset="UTF-8"',
  'application/json;;',
  'application/vnd.api+json',
  'application/json, text/plain',
  '*/*',
  'application/json; boundary=x',
  'application',
  'x'.repeat(1000),
]

/** The whole body broken: bad JSON, not an object, another content type, empty, huge, deep, polluting. */
export function garbageBody(g: Gen, d: Draft): SentRequest {
  const json = { ...d, body: undefined }
  const valid = d.body === undefined ? '{}' : toJsonText(d.body)
  const wantsBody = Boolean(d.op.body)
  // A GET or DELETE body is not read at all; on the others it must parse.
  const parsesBody = !['GET', 'DELETE'].includes(d.op.method)
  const kind = uniform(g, 8)
  const headers = (ct: string) => ({ ...d.actor.headers, 'content-type': ct })
  switch (kind) {
    case 0: {
      const payload = pick(g, BROKEN_JSON)
      return assemble(json, 'garbage:broken-json', {
        payload,
        headers: headers('application/json'),
        ...(parsesBody && { expect: { statuses: [400], codes: ['INVALID_JSON'] } }),
      })
    }
    case 1: {
      const payload = pick(g, ['[]', '1', '"s"', 'true', '[{"ref_id":"x"}]', '-0', '1e400'])
      return assemble(json, 'garbage:not-an-object', {
        payload,
        headers: headers('application/json'),
        ...(wantsBody && { expect: { statuses: [422], codes: ['VALIDATION_ERROR'] } }),
      })
    }
    case 2:
      return assemble(json, 'garbage:foreign-type', {
        payload: valid,
        headers: headers(pick(g, FOREIGN_TYPES)),
        ...(wantsBody && parsesBody && { expect: { statuses: [415, 422], codes: ['UNSUPPORTED_MEDIA_TYPE', 'VALIDATION_ERROR'] } }),
      })
    case 3:
      return assemble(json, 'garbage:odd-json-type', { payload: valid, headers: headers(pick(g, ODD_JSON_TYPES)) })
    case 4:
      return assemble(json, 'garbage:empty', {
        payload: pick(g, ['', ' ', '\n', '\r\n\t ']),
        headers: pick(g, [headers('application/json'), headers('text/plain'), d.actor.headers]),
      })
    case 5: {
      const pad = chance(g, 0.5) ? 70_000 : 60_000
      const payload = `{"pad":"${huge(pad)}",${valid.slice(1)}`
      return assemble(json, `garbage:huge-${pad}`, { payload, headers: headers('application/json') })
    }
    case 6: {
      const depth = pick(g, [1_000, 10_000, 30_000])
      const payload = `{"constructor":{"prototype":{"x":1}},"deep":${'['.repeat(depth)}${']'.repeat(depth)},${valid.slice(1)}`
      return assemble(json, 'garbage:deep', { payload, headers: headers('application/json') })
    }
    case 7: {
      const payload = pick(g, [
        `\ufeff${valid}`,
        `{"__proto__":{"isAdmin":true},${valid.slice(1)}`,
        valid.replace('{', '{"ref_id":1,"ref_id":"dup",'),
        `${valid}\u0000`,
        valid.replace(/"/g, "'"),
      ])
      return assemble(json, 'garbage:tricky-json', { payload, headers: headers('application/json') })
    }
    default:
      return assemble(json, 'garbage:random-json', {
        payload: toJsonText(g(fc.jsonValue, { maxDepth: 4 })),
        headers: headers('application/json'),
      })
  }
}

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
  if (s.enum && types.every((t) => t === 'string')) return pick(g, ['bogus', s.enum[0].toUpperCase(), `${s.enum[0]} `])
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
    return assemble(d, `param:${p.name}${encoded ? '' : ' raw'}`, { rawPath, expect })
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
