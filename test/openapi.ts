import { expect } from 'vitest'
import type { App } from '../src/http/server.js'

/** A JSON Schema as the OpenAPI document carries it (after $ref resolution). */
export type Schema = { [key: string]: any }
export type Param = { name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: Schema }
export type Operation = {
  /** `GET /api/v1/item/{id}` */
  id: string
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  audience: 'reseller' | 'operator'
  params: Param[]
  body?: Schema
  /** Response schema by status code. */
  responses: Record<string, Schema | undefined>
  /** Its success may also come as text/csv (the audit log's `format=csv`). */
  csv?: boolean
}

function resolve(doc: any, node: any): any {
  if (Array.isArray(node)) return node.map((n) => resolve(doc, n))
  if (!node || typeof node !== 'object') return node
  if (typeof node.$ref === 'string') {
    const target = node.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((o: any, k: string) => o?.[k], doc)
    expect(target, `unresolvable ${node.$ref}`).toBeDefined()
    return resolve(doc, target)
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolve(doc, v)]))
}

/**
 * Every reseller and operator operation of the app's own OpenAPI document (GET /api/openapi.json),
 * so a route added later is fuzzed and swept without touching the tests.
 */
export async function loadOperations(app: App): Promise<Operation[]> {
  const res = await app.inject({ method: 'GET', url: '/api/openapi.json' })
  expect(res.statusCode).toBe(200)
  const doc = res.json()
  const operations: Operation[] = []
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue
      const schemes = (op.security ?? []).flatMap((s: object) => Object.keys(s))
      const audience = schemes.includes('apiKey') ? 'reseller' : schemes.includes('adminToken') ? 'operator' : undefined
      if (!audience) continue
      const responses = Object.fromEntries(
        Object.entries<any>(op.responses ?? {}).map(([status, r]) => [status, resolve(doc, r.content?.['application/json']?.schema)]),
      )
      operations.push({
        id: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase() as Operation['method'],
        path,
        audience,
        params: resolve(doc, op.parameters ?? []),
        body: resolve(doc, op.requestBody?.content?.['application/json']?.schema),
        responses,
        csv: Boolean(op.responses?.['200']?.content?.['text/csv']),
      })
    }
  }
  return operations
}

/** Characters as JSON Schema (and Ajv) count them: code points, a lone surrogate being one. */
const lengthOf = (s: string) => [...s].length

export type Verdict = 'valid' | 'invalid' | 'unknown'

/**
 * Whether a JSON value satisfies a schema, strictly (no type coercion), as far as this small checker
 * can tell: `format` is left to the server ('unknown' when it alone would decide).
 */
export function verdict(schema: Schema | undefined, value: unknown): Verdict {
  if (!schema) return 'valid'
  const branches = schema.anyOf ?? schema.oneOf
  if (branches) {
    const own = verdict({ ...schema, anyOf: undefined, oneOf: undefined }, value)
    const verdicts = branches.map((b: Schema) => verdict(b, value))
    const any: Verdict = verdicts.includes('valid') ? 'valid' : verdicts.includes('unknown') ? 'unknown' : 'invalid'
    return combine([own, any])
  }
  const checks: Verdict[] = []
  if (schema.allOf) checks.push(...schema.allOf.map((b: Schema) => verdict(b, value)))
  if ('const' in schema) checks.push(Object.is(schema.const, value) || schema.const === value ? 'valid' : 'invalid')
  if (schema.enum) checks.push(schema.enum.includes(value) ? 'valid' : 'invalid')
  const types: string[] | undefined = schema.type === undefined ? undefined : [schema.type].flat()
  if (types && !types.some((t) => hasType(t, value))) return 'invalid'
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return 'invalid'
    if (schema.maximum !== undefined && value > schema.maximum) return 'invalid'
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && lengthOf(value) < schema.minLength) return 'invalid'
    if (schema.maxLength !== undefined && lengthOf(value) > schema.maxLength) return 'invalid'
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) return 'invalid'
    if (schema.format !== undefined) checks.push('unknown')
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return 'invalid'
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return 'invalid'
    if (schema.items) checks.push(...value.map((v) => verdict(schema.items, v)))
  }
  if (isObject(value)) {
    for (const key of schema.required ?? []) if (!(key in value)) return 'invalid'
    for (const [key, v] of Object.entries(value)) {
      if (schema.properties?.[key]) checks.push(verdict(schema.properties[key], v))
      else if (schema.additionalProperties === false) return 'invalid'
    }
  }
  return combine(checks)
}

function combine(verdicts: Verdict[]): Verdict {
  return verdicts.includes('invalid') ? 'invalid' : verdicts.includes('unknown') ? 'unknown' : 'valid'
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
    case 'null':
      return value === null
    case 'array':
      return Array.isArray(value)
    case 'object':
      return isObject(value)
    default:
      return typeof value === type
  }
}
