import fc from 'fast-check'
import type { SentRequest } from './house-shape.js'
import { isObject, verdict, type Operation, type Schema } from './openapi.js'
import {
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
import { answerFields, assemble, fieldPath, type Draft } from './fuzz-draft.js'

// Each takes a valid draft and breaks one thing about it, saying what the contract then decides where it can.

/** A method the path does not have: 405 naming the methods it takes, in the house shape. */
export function wrongMethod(g: Gen, d: Draft, ops: Operation[]): SentRequest {
  // A route with a parameter may own this path too (GET /item/{id} answers GET /item/validate).
  const owns = (o: Operation) =>
    new RegExp(`^${o.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`).test(d.op.path)
  const taken = new Set(ops.filter((o) => o.path === d.op.path || owns(o)).map((o) => o.method))
  const free = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const).filter((m) => !taken.has(m as Operation['method']))
  const req = assemble(d, 'method:wrong')
  req.method = pick(g, free)
  req.rerouted = true
  req.expect = { statuses: [405], codes: ['METHOD_NOT_ALLOWED'] }
  return req
}

/** One field of a valid body made wrong, missing, odd or joined by an unknown neighbour. */
export function mutateBody(g: Gen, d: Draft, world: World): SentRequest {
  const baseValid = verdict(d.op.body, asParsed(d.body)) === 'valid'
  const places = locations(d.body, d.op.body).filter((l) => l.path.length > 0)
  const objects = locations(d.body, d.op.body).filter((l) => isObject(getAt(d.body, l.path)))
  const how = places.length ? pick(g, ['remove', 'odd', 'odd', 'null', 'extra', 'array', 'digits'] as const) : 'extra'
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
    case 'digits':
      // docs/design.md §3: a reseller body takes an integer as its digits (the schema's union says so, and the
      // verdict follows it); an operator body refuses them, a 422 naming the field.
      value = typeof current === 'number' && Number.isInteger(current) ? String(current) : oddValue(g)
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
