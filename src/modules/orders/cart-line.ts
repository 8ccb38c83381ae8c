import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import { raisingAppErrors } from '../../db/functions/app-errors.js'
import { invalidField } from '../../errors.js'

/** A cart line's note as sent: text, or (as the public docs type it, string|json) a JSON object taken as its text. */
export type NoteInput = string | Record<string, unknown> | null | undefined

const NOTE_MAX = 1000

/** The note as purchase() and the sandbox read it: an object becomes its JSON text, bounded like a string note. */
export function noteText(note: NoteInput, field: string): string | null {
  if (note === null || note === undefined) return null
  if (typeof note === 'string') return note
  const text = JSON.stringify(note)
  if (text.length > NOTE_MAX) throw invalidField(field, `must be at most ${NOTE_MAX} characters as JSON text`)
  return text
}

/** check_cart_line() (cart-line.sql) for a body of one item: the note rules, and what the line costs. */
export async function checkCartLine(db: Database, item: { id: number; price: number }, quantity: number, note: string | null) {
  // The item's row at the price given (a level's, docs/design.md §5d), as purchase() hands it on.
  const { rows } = await raisingAppErrors(
    sql<{ note: string | null; cost: string | number }>`
      SELECT c.note, c.cost FROM items i,
             check_cart_line(NULL, jsonb_populate_record(i, jsonb_build_object('price', ${item.price}::bigint)), ${quantity}::integer, ${note}::text) c
       WHERE i.id = ${item.id}`.execute(db),
  )
  return { note: rows[0].note, cost: Number(rows[0].cost) }
}
