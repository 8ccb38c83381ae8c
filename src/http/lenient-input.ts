import { DIGITS } from './schemas.js'

// docs/design.md §3: reseller bodies take an integer also as its decimal digits, and a note also as a
// number. The schema says where (schemas.ts: IntegerOrDigits, NumberAsText); this turns such values
// into what the schema's strict branch checks, before validation, so the bounds and lengths still apply.

type Schema = { type?: unknown; anyOf?: Schema[]; properties?: Record<string, Schema>; items?: Schema; pattern?: unknown }
type Conversion = 'integer' | 'text'
type Place = { path: string[]; to: Conversion }

const DIGITS_RE = /^[0-9]+$/
const EACH = '*'

function conversionOf(schema: Schema): Conversion | undefined {
  const branches = schema.anyOf ?? []
  const has = (test: (b: Schema) => boolean) => branches.some(test)
  if (has((b) => b.type === 'integer') && has((b) => b.type === 'string' && b.pattern === DIGITS)) return 'integer'
  if (has((b) => b.type === 'number') && has((b) => b.type === 'string')) return 'text'
  return undefined
}

function placesIn(schema: Schema | undefined, path: string[], out: Place[], depth = 0): Place[] {
  if (!schema || typeof schema !== 'object' || depth > 12) return out
  const to = conversionOf(schema)
  if (to) out.push({ path, to })
  for (const branch of schema.anyOf ?? []) placesIn(branch, path, out, depth + 1)
  for (const [key, property] of Object.entries(schema.properties ?? {})) placesIn(property, [...path, key], out, depth + 1)
  if (schema.items) placesIn(schema.items, [...path, EACH], out, depth + 1)
  return out
}

function convert(holder: Record<string, unknown> | unknown[], key: string | number, to: Conversion) {
  const value = (holder as Record<string | number, unknown>)[key]
  if (to === 'integer' && typeof value === 'string' && DIGITS_RE.test(value))
    (holder as Record<string | number, unknown>)[key] = Number(value)
  // A number that is not finite (the text 1e400) stays, for the validator to refuse as such.
  else if (to === 'text' && typeof value === 'number' && Number.isFinite(value))
    (holder as Record<string | number, unknown>)[key] = String(value)
}

function apply(value: unknown, path: string[], to: Conversion) {
  const [head, ...rest] = path
  if (head === EACH) {
    if (!Array.isArray(value)) return
    value.forEach((_, i) => (rest.length ? apply(value[i], rest, to) : convert(value, i, to)))
  } else if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, head)) {
    const holder = value as Record<string, unknown>
    if (rest.length) apply(holder[head], rest, to)
    else convert(holder, head, to)
  }
}

/** The body's lenient places for this schema, as a function that converts them in place; undefined when there are none. */
export function lenientBody(schema: unknown): ((body: unknown) => void) | undefined {
  const places = placesIn(schema as Schema, [], [])
  if (places.length === 0) return undefined
  return (body) => {
    for (const { path, to } of places) {
      // A top-level integer or note is never a whole body.
      if (path.length > 0) apply(body, path, to)
    }
  }
}

/** The most a list's per_page takes (its integer branch's maximum), if the query has one. */
function perPageMaximum(schema: unknown): number | undefined {
  const perPage = (schema as Schema | undefined)?.properties?.per_page as (Schema & { maximum?: number }) | undefined
  if (!perPage) return undefined
  const integer = [perPage, ...(perPage.anyOf ?? [])].find((s) => s.type === 'integer') as { maximum?: number } | undefined
  return integer?.maximum
}

/**
 * A reseller list's `per_page` above its maximum is taken as the maximum (the public docs: "max 500"),
 * not refused; a value that is no number stays for the validator to refuse.
 */
export function clampingPerPage(schema: unknown): ((query: unknown) => void) | undefined {
  const maximum = perPageMaximum(schema)
  if (maximum === undefined) return undefined
  return (query) => {
    if (query === null || typeof query !== 'object') return
    const q = query as Record<string, unknown>
    // An unsafe integer stays as sent: it is refused like any number that is no exact integer.
    const asked = typeof q.per_page === 'string' && DIGITS_RE.test(q.per_page) ? Number(q.per_page) : undefined
    if (asked !== undefined && Number.isSafeInteger(asked) && asked > maximum) q.per_page = String(maximum)
  }
}
