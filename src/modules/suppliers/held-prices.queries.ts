import { sql } from 'kysely'
import type { Database, Trx } from '../../db/database.js'

export type HeldStatus = 'pending' | 'approved' | 'rejected' | 'superseded'

// Pending: open and undecided; superseded: closed by a later list before anyone decided.
const statusOf = sql<HeldStatus>`CASE WHEN decision IS NOT NULL THEN decision WHEN hold_open THEN 'pending' ELSE 'superseded' END`

/** A provider's held prices, newest first, with the product's name as last listed. */
export async function listHeld(db: Database, provider: string, f: { status?: HeldStatus; page: number; perPage: number }) {
  let query = db
    .selectFrom('supplier_changes as c')
    .leftJoin('supplier_products as p', (j) => j.onRef('p.provider', '=', 'c.provider').onRef('p.code', '=', 'c.code'))
    .where('c.provider', '=', provider)
    .where('c.kind', '=', 'held')
  if (f.status === 'pending') query = query.where('c.hold_open', '=', true).where('c.decision', 'is', null)
  else if (f.status === 'superseded') query = query.where('c.hold_open', '=', false).where('c.decision', 'is', null)
  else if (f.status) query = query.where('c.decision', '=', f.status)
  const [rows, count] = await Promise.all([
    query
      .select([
        'c.id',
        'c.code',
        'p.name',
        'c.old_value as last_applied',
        'c.new_value as listed',
        'c.held_reason as reason',
        statusOf.as('status'),
        'c.at',
        'c.decided_at',
        'c.sync_id',
      ])
      .orderBy('c.id', 'desc')
      .limit(f.perPage)
      .offset((f.page - 1) * f.perPage)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ])
  // Every held change has its reason (the table's CHECK).
  return { rows: rows.map((r) => ({ ...r, reason: r.reason! })), total: Number(count.total) }
}

/** One held price of the provider, locked for the decision. */
export function holdForDecision(trx: Trx, provider: string, id: number) {
  return trx
    .selectFrom('supplier_changes as c')
    .innerJoin('providers as v', 'v.code', 'c.provider')
    .leftJoin('supplier_products as p', (j) => j.onRef('p.provider', '=', 'c.provider').onRef('p.code', '=', 'c.code'))
    .select(['c.id', 'c.code', 'c.new_value', 'c.old_value', 'c.hold_open', 'c.decision', 'c.sync_id', 'v.kind', 'p.postpaid'])
    .where('c.provider', '=', provider)
    .where('c.id', '=', id)
    .where('c.kind', '=', 'held')
    .forUpdate('c')
    .executeTakeFirst()
}

export async function decide(trx: Trx, id: number, decision: 'approved' | 'rejected'): Promise<void> {
  // A rejected hold stays open: the list's same price is ignored until the list moves it again.
  await trx
    .updateTable('supplier_changes')
    .set({ decision, decided_at: sql`now()`, hold_open: decision === 'rejected' })
    .where('id', '=', id)
    .execute()
}

/** An approved price becomes the product's applied price, logged as the price change it is. */
export async function applyHeldPrice(
  trx: Trx,
  provider: string,
  hold: { code: string; old_value: string | null; new_value: string; sync_id: number },
): Promise<void> {
  await trx
    .updateTable('supplier_products')
    .set({ price: hold.new_value })
    .where('provider', '=', provider)
    .where('code', '=', hold.code)
    .execute()
  await trx
    .insertInto('supplier_changes')
    .values({
      provider,
      code: hold.code,
      kind: 'price',
      old_value: hold.old_value,
      new_value: hold.new_value,
      at: sql<Date>`now()`,
      sync_id: hold.sync_id,
    })
    .execute()
}
