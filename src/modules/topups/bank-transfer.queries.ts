import { sql } from 'kysely'
import type { Database, Trx } from '../../db/database.js'

/** Totals in [from, to] to the account number that are reserved now, and the soonest a reservation lapses. */
export async function reservedTotals(db: Database, accountNumber: string, from: number, to: number) {
  const rows = await db
    .selectFrom('transfer_totals')
    .select(['total', 'reserved_until'])
    .where('account_number', '=', accountNumber)
    .where('total', '>=', from)
    .where('total', '<=', to)
    .where(sql<boolean>`reserved_until > now()`)
    .execute()
  return rows.map((r) => ({ total: Number(r.total), reservedUntil: new Date(r.reserved_until) }))
}

/**
 * Reserves the total to the account number for the top-up until `until`: a new row, or the row of a
 * lapsed reservation taken over. False when a live top-up holds it (a concurrent request took it first).
 */
export async function reserveTotal(trx: Trx, r: { accountNumber: string; total: number; topupId: number; until: Date }): Promise<boolean> {
  const row = await trx
    .insertInto('transfer_totals')
    .values({ account_number: r.accountNumber, total: r.total, topup_id: r.topupId, reserved_until: r.until })
    .onConflict((oc) =>
      oc
        .columns(['account_number', 'total'])
        .doUpdateSet((eb) => ({ topup_id: eb.ref('excluded.topup_id'), reserved_until: eb.ref('excluded.reserved_until') }))
        .where(sql<boolean>`transfer_totals.reserved_until <= now()`),
    )
    .returning('topup_id')
    .executeTakeFirst()
  return row !== undefined
}
