import fc from 'fast-check'
import { isObject, type Schema } from './openapi.js'

/** fast-check's generator handle inside a property: draws values on demand, reproducibly by seed. */
export type Gen = fc.GeneratorValue

/** A JSON number kept as written (`-0`, `9007199254740993`, `1e400`): JSON.stringify would round it. */
export class RawNumber {
  constructor(readonly text: string) {}
  get parsed(): unknown {
    return JSON.parse(this.text)
  }
}

/** Serializes a body, writing RawNumbers as their own text. */
export function toJsonText(value: unknown): string {
  const raws: string[] = []
  const text = JSON.stringify(value, (_key, v) => (v instanceof RawNumber ? `@@RAW${raws.push(v.text) - 1}@@` : v))
  return text.replace(/"@@RAW(\d+)@@"/g, (_m, i) => raws[Number(i)])
}

/** What the server's JSON.parse sees: RawNumbers as parsed. */
export function asParsed(value: unknown): unknown {
  return JSON.parse(toJsonText(value))
}

// Uniform draws: fast-check's own bias towards bounds (0, 1, the last index) would skew every choice.
const uniform = (g: Gen, max: number): number => g(() => fc.noBias(fc.integer({ min: 0, max })))
export { uniform }
export const pick = <T>(g: Gen, values: readonly T[]): T => values[uniform(g, values.length - 1)]
export const chance = (g: Gen, p: number): boolean => uniform(g, 9_999) < p * 10_000

/** Strings marked so an error body that echoes them back is recognised. */
export const HUGE_MARK = 'HUGE~'
export const huge = (n: number) => HUGE_MARK + 'h'.repeat(n)

export const NASTY_STRINGS = [
  '',
  ' ',
  '   ',
  '\t',
  '\n',
  '\ud800',
  '\udfff',
  'a\ud800b',
  '\udc00\ud800',
  '\u0000',
  'a\u0000b',
  '\u202eRTL-override\u202c',
  '\u200f\u05e9\u05dc\u05d5\u05dd',
  '\u200b',
  '\ufeffbom',
  '😀😀😀',
  'e\u0301\u0301\u0301',
  '\u0085',
  '\u2028\u2029',
  "' OR '1'='1",
  '"; DROP TABLE orders; --',
  '%00',
  '%',
  '%zz',
  '../../etc/passwd',
  '${7*7}{{7*7}}',
  '<script>alert(1)</script>',
  '\r\nX-Injected: 1',
  '__proto__',
  'constructor',
  'İı',
  'ß',
  '\\',
  '"',
  '1',
  '2',
  ' 1',
  '1 ',
  '1e3',
  '0x10',
  '-0',
  'NaN',
  'Infinity',
  'null',
  'true',
  '٣',
  '１２',
  '2026-06-30T23:59:60Z',
  'LCK-00000000000000000000000000000000',
  'x'.repeat(191),
  'x'.repeat(192),
  'y'.repeat(1001),
  '😀'.repeat(191),
  '😀'.repeat(192),
  huge(5_000),
  huge(20_000),
]

export const RAW_NUMBERS = [
  '-0',
  '9007199254740993',
  '-9007199254740993',
  '1e400',
  '-1e400',
  '1e308',
  '-1e308',
  '1E2',
  '1.0',
  '1e-7',
  '4.9e-324',
  '123456789012345678901234567890',
  '1000000000000001',
  '1e15',
  '1e16',
  '2147483648',
  '-2147483649',
]

export const ODD_VALUES: unknown[] = [
  true,
  false,
  null,
  [],
  {},
  [1],
  [null],
  { a: 1 },
  0,
  -1,
  1.5,
  0.1,
  2 ** 31,
  2 ** 53 - 1,
  2 ** 53,
  -(2 ** 53),
  1e15,
  1e15 + 1,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
]

/** Anything odd: hand-picked edge values, raw number tokens, or fast-check's arbitrary JSON and strings. */
export function oddValue(g: Gen): unknown {
  switch (uniform(g, 5)) {
    case 0:
      return pick(g, NASTY_STRINGS)
    case 1:
      return new RawNumber(pick(g, RAW_NUMBERS))
    case 2:
      return pick(g, ODD_VALUES)
    case 3:
      return g(fc.string, { unit: pick(g, ['binary', 'grapheme', 'binary-ascii'] as const), maxLength: 40 })
    case 4:
      return g(fc.jsonValue, { maxDepth: 3 })
    default:
      return g(() => fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.maxSafeInteger()))
  }
}

/** A hint supplies a realistic value for a named field (an existing item id, a fresh ref_id). */
export type Hint = (name: string, schema: Schema, path: string[]) => { value: unknown; partial?: boolean } | undefined

/** A value the schema accepts: small, plain and realistic, or near its bounds. */
export function validValue(g: Gen, schema: Schema, hint: Hint, path: string[] = []): unknown {
  const name = path.at(-1) ?? ''
  const hinted = hint(name, schema, path)
  if (hinted && !hinted.partial) return hinted.value
  const given = (hinted?.value ?? {}) as Record<string, unknown>
  const branches = schema.anyOf ?? schema.oneOf
  if (branches) {
    const real = branches.filter((b: Schema) => b.type !== 'null')
    return validValue(g, real.length && chance(g, 0.7) ? pick(g, real) : pick(g, branches), hint, path)
  }
  if ('const' in schema) return schema.const
  if (schema.enum) return pick(g, schema.enum)
  switch ([schema.type].flat()[0]) {
    case 'null':
      return null
    case 'boolean':
      return chance(g, 0.5)
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? -1000
      const max = Math.min(schema.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER)
      if (chance(g, 0.15)) return pick(g, [min, max])
      return Math.max(min, -1e6) + uniform(g, Math.min(max, Math.max(min, 0) + 1000) - Math.max(min, -1e6))
    }
    case 'string':
      return validString(g, schema)
    case 'array': {
      const n =
        (schema.minItems ?? 0) + uniform(g, Math.min(schema.maxItems ?? 3, Math.max(schema.minItems ?? 0, 3)) - (schema.minItems ?? 0))
      return Array.from({ length: n }, (_, i) => validValue(g, schema.items ?? {}, hint, [...path, String(i)]))
    }
    case 'object': {
      const out: Record<string, unknown> = { ...given }
      // A change (no required field) usually touches a field or two, as an operator would.
      const optional = schema.required?.length ? 0.5 : 0.2
      for (const [key, sub] of Object.entries<Schema>(schema.properties ?? {})) {
        if (key in out) continue
        if ((schema.required ?? []).includes(key) || chance(g, optional)) out[key] = validValue(g, sub, hint, [...path, key])
      }
      return out
    }
    default:
      return 'fz'
  }
}

function validString(g: Gen, schema: Schema): string {
  const min = schema.minLength ?? 0
  const max = schema.maxLength ?? 64
  if (schema.format === 'email') return `fz${g(fc.nat, { max: 1e6 })}@example.com`
  if (schema.format === 'date-time') return new Date(g(fc.integer, { min: 0, max: 4e12 })).toISOString()
  if (schema.pattern) return g(fc.stringMatching, new RegExp(schema.pattern, 'u'), { size: 'xsmall' }).slice(0, max)
  if (chance(g, 0.2)) {
    // Valid yet unfriendly: unicode, RTL, NUL, lone surrogates within the length bounds.
    const s = pick(g, NASTY_STRINGS)
    const n = [...s].length
    if (n >= min && n <= max) return s
  }
  const n = min + uniform(g, Math.min(max, min + 12) - min)
  return `fz${g(fc.string, { unit: 'grapheme-ascii', minLength: n, maxLength: n })}`.slice(0, Math.max(n, min))
}

/** Every leaf and object of a body, as paths: what a mutation can aim at. */
export function locations(value: unknown, schema: Schema | undefined, path: string[] = []): { path: string[]; schema?: Schema }[] {
  const here = [{ path, schema }]
  const props = (s?: Schema): Record<string, Schema> =>
    s?.properties ?? (s?.anyOf ?? s?.oneOf ?? []).find((b: Schema) => b.properties)?.properties ?? {}
  const itemsOf = (s?: Schema): Schema | undefined => s?.items ?? (s?.anyOf ?? s?.oneOf ?? []).find((b: Schema) => b.items)?.items
  if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => locations(v, itemsOf(schema), [...path, String(i)]))]
  if (isObject(value) && !(value instanceof RawNumber)) {
    const inner = Object.entries(value).flatMap(([k, v]) => locations(v, props(schema)[k], [...path, k]))
    // Required fields that are absent are places too: a mutation can only remove, but the schema says they exist.
    return [...here, ...inner]
  }
  return here
}

export function getAt(root: unknown, path: string[]): unknown {
  return path.reduce<any>((o, k) => (o == null ? undefined : o[k]), root)
}

/** A deep copy with the value at `path` replaced (or removed when `value` is REMOVE). */
export const REMOVE = Symbol('remove')
export function setAt(root: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value
  const [head, ...rest] = path
  if (Array.isArray(root)) {
    const copy = [...root]
    if (value === REMOVE && rest.length === 0) copy.splice(Number(head), 1)
    else copy[Number(head)] = setAt(copy[Number(head)], rest, value)
    return copy
  }
  const copy: Record<string, unknown> = { ...(root as object) }
  if (value === REMOVE && rest.length === 0) delete copy[head]
  else defineOwn(copy, head, setAt(copy[head], rest, value))
  return copy
}

/** Sets a key as an own data property, `__proto__` included. */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}
