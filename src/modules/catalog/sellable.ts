import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import { raisingAppErrors } from '../../db/functions/app-errors.js'
import type { Item } from '../../db/schema.js'

/**
 * The item checks of a purchase (refuse_unsellable in sellable.sql, which purchase() calls too) for
 * a sandbox order or a bill inquiry of one item: active, provider on, minimum, maximum, a fulfilment
 * that can take it. Answers the item priced at the buyer's level (docs/design.md §5d); a refusal is
 * thrown as its AppError.
 */
export async function refuseUnsellable(
  db: Database,
  itemId: number,
  quantity: number,
  fulfillable: readonly string[],
  accountId: number,
): Promise<Item> {
  const { rows } = await raisingAppErrors(
    sql<Item>`SELECT * FROM refuse_unsellable(${itemId}, ${quantity}, ${quantity}, ${fulfillable}::text[], NULL,
                (SELECT price_level_id FROM accounts WHERE id = ${accountId}))`.execute(db),
  )
  return rows[0]
}
