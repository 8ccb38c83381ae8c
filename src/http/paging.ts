import { Type, type TSchema } from '@sinclair/typebox'
import { COUNT_CAP, cursorWindow, type PageWindow } from '../db/keyset-paging.js'
import { invalidField as fieldError } from '../errors.js'
import { Nullable, PageMeta } from './schemas.js'

// The HTTP side of the growing lists' pages (db/keyset-paging.ts builds them): the query, the meta, the window.
export const CursorQuery = {
  cursor: Type.Optional(Type.String({ maxLength: 40, description: 'meta.next_cursor of the previous page; page is then ignored' })),
}

export const CursorPageMeta = Type.Object({
  ...PageMeta.properties,
  total_capped: Type.Boolean({ description: `true when there are more than ${COUNT_CAP} rows: total and last_page stop there` }),
  next_cursor: Nullable(Type.String({ description: 'the next page (keyset), null on the last' })),
})

/** Where a page starts: after the cursor's id, or at an OFFSET bounded by COUNT_CAP. */
export function pageWindow(q: { page: number; per_page: number; cursor?: string }): PageWindow {
  if (q.cursor === undefined) return { page: q.page, per_page: q.per_page, offset: (q.page - 1) * q.per_page }
  const window = cursorWindow(q.cursor, q.per_page)
  if (!window) throw fieldError('cursor', 'is not a cursor this list handed out')
  return window
}

export const OkCursorPage = <T extends TSchema>(item: T) =>
  Type.Object({ message: Type.Literal('OK'), data: Type.Array(item), meta: CursorPageMeta })
