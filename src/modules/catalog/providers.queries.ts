import { sql, type Insertable } from 'kysely'
import type { Database, Trx } from '../../db/database.js'
import type { DB, ProviderKind } from '../../db/schema.js'

export function findProvider(db: Database, code: string) {
  return db.selectFrom('providers').selectAll().where('code', '=', code).executeTakeFirst()
}

/** The columns named (undefined: unchanged), stamped now; undefined when there is no such provider. */
export function updateProviderRow(
  trx: Trx,
  code: string,
  changes: {
    kind?: ProviderKind
    base_url?: string
    username?: string | null
    api_key_enc?: string | null
    active?: boolean
    balance_alert_below?: number | null
    balance_alert_hours?: string | null
  },
) {
  return trx
    .updateTable('providers')
    .set({ ...changes, updated_at: sql`now()` })
    .where('code', '=', code)
    .returningAll()
    .executeTakeFirst()
}

export function providersByCode(db: Database) {
  return db.selectFrom('providers').selectAll().orderBy('code').execute()
}

/** A new provider; undefined when its code is taken. */
export function insertProvider(db: Database, row: Insertable<DB['providers']>) {
  return db
    .insertInto('providers')
    .values(row)
    .onConflict((oc) => oc.column('code').doNothing())
    .returningAll()
    .executeTakeFirst()
}
