import type { Static } from '@sinclair/typebox'
import type { PageMeta } from './schemas.js'

/** The success envelope of docs/design.md §3: `{ message: 'OK', data }`, and `meta` for a page of a list. */
export function ok<T>(data: T): { message: 'OK'; data: T }
export function ok<T, M>(data: T, meta: M): { message: 'OK'; data: T; meta: M }
export function ok(data: unknown, meta?: unknown) {
  return meta === undefined ? { message: 'OK' as const, data } : { message: 'OK' as const, data, meta }
}

/** The page meta of every list: numbered pages over `total` rows (keyset lists add their cursor to it, db/keyset-paging.ts). */
export function paginate(w: { page: number; per_page: number }, total: number): Static<typeof PageMeta> {
  return { page: w.page, per_page: w.per_page, total, last_page: Math.max(1, Math.ceil(total / w.per_page)) }
}
