import { sql } from 'kysely'
import type { Trx } from '../../db/database.js'

/** Writes the floor margin of items no pricing rule covers; false when it was that already. */
export async function setMinMargin(trx: Trx, minMargin: number): Promise<boolean> {
  const { rows } = await sql<{ changed: boolean }>`
    UPDATE margin_settings SET min_margin = ${minMargin}, updated_at = now()
     WHERE min_margin <> ${minMargin} RETURNING true AS changed`.execute(trx)
  return rows.length > 0
}
