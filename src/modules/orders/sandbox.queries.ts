import type { Database } from '../../db/database.js'

/** An account's sandbox order by its ref_id or invoice, with its item's and product's names. */
export function findSandbox(db: Database, accountId: number, ref: string) {
  return db
    .selectFrom('sandbox_orders as s')
    .innerJoin('items as i', 'i.id', 's.item_id')
    .innerJoin('products as p', 'p.id', 'i.product_id')
    .select([
      's.id',
      's.ref_id',
      's.invoice',
      's.item_id',
      's.quantity',
      's.price',
      's.amount',
      's.created_at',
      'i.name as variant_name',
      'p.name as product_name',
      'i.order_process',
    ])
    .where('s.account_id', '=', accountId)
    .where((eb) => eb.or([eb('s.ref_id', '=', ref), eb('s.invoice', '=', ref)]))
    .executeTakeFirst()
}

/** A new sandbox order; undefined when the account already has one under that ref_id. */
export function insertSandboxOrder(
  db: Database,
  row: { account_id: number; ref_id: string; invoice: string; item_id: number; quantity: number; price: number; amount: number },
) {
  return db
    .insertInto('sandbox_orders')
    .values(row)
    .onConflict((oc) => oc.columns(['account_id', 'ref_id']).doNothing())
    .returning(['id', 'ref_id', 'invoice'])
    .executeTakeFirst()
}
