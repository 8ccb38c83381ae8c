import { isRecord, text, type UpstreamReply } from './upstream-http.js'

/** One product of a provider's price list, read into the shape every protocol shares (docs/design.md §11b). */
export type ListedProduct = {
  code: string
  name: string
  category: string
  brand: string
  type: string
  /** A plain decimal string: Digiflazz's price (postpaid: its admin fee), a panel's rate per 1,000. */
  price: string
  minQuantity: number | null
  maxQuantity: number | null
  active: boolean
  unlimitedStock: boolean
  stock: number | null
  /** HH:MM; both null when the supplier has no cut-off window. */
  cutOffStart: string | null
  cutOffEnd: string | null
  postpaid: boolean
  raw: Record<string, unknown>
}

/** A whole list, or why none was read; `skipped` counts entries without a usable code, name or price. */
export type PriceListRead = { ok: true; products: ListedProduct[]; skipped: number } | { ok: false; reason: string }

/** "0012.50" → "12.5"; undefined for anything that is not a non-negative decimal. */
export function decimalOf(v: unknown): string | undefined {
  const s = text(v)?.trim()
  const m = s && /^(\d+)(?:\.(\d+))?$/.exec(s)
  if (!m) return undefined
  const whole = m[1]!.replace(/^0+(?=\d)/, '')
  const fraction = (m[2] ?? '').replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : whole
}

export function countOf(v: unknown): number | null {
  const s = text(v)?.trim()
  const n = s && /^\d+$/.test(s) ? Number(s) : NaN
  return Number.isSafeInteger(n) ? n : null
}

export const flagOf = (v: unknown) => v === true || v === 1 || v === 'true' || v === '1'

/** "0:0"/"23:5" → "00:00"/"23:05"; a window that starts where it ends (Digiflazz's "none") → null. */
export function cutOffOf(start: unknown, end: unknown): { cutOffStart: string | null; cutOffEnd: string | null } {
  const hhmm = (v: unknown) => {
    const m = /^(\d{1,2}):(\d{1,2})$/.exec(text(v)?.trim() ?? '')
    if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return undefined
    return `${m[1]!.padStart(2, '0')}:${m[2]!.padStart(2, '0')}`
  }
  const s = hhmm(start)
  const e = hhmm(end)
  return s && e && s !== e ? { cutOffStart: s, cutOffEnd: e } : { cutOffStart: null, cutOffEnd: null }
}

/** Why an answer is not a list: unreachable, an HTTP error, or the provider's own message. */
export function failureOf(reply: UpstreamReply, message: unknown): string {
  if (reply.kind === 'unreachable') return `provider unreachable: ${reply.reason}`
  const said = text(message)
  return `provider answered HTTP ${reply.status}${said ? `: ${said}` : ' without a list'}`
}

export const isList = (v: unknown): v is unknown[] => Array.isArray(v)

// PostgreSQL stores no NUL character in text or jsonb: one in a supplier's entry would fail every sync.
const NUL = new RegExp(String.fromCharCode(0), 'g')

/** A value as read, without NUL characters in any string, ready to store. */
export function storable<T>(v: T): T {
  if (typeof v === 'string') return v.replace(NUL, '') as T
  if (Array.isArray(v)) return v.map(storable) as T
  if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [storable(k), storable(x)])) as T
  return v
}
export { isRecord, text }
