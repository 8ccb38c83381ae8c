import type { Database } from '../../db/database.js'
import * as accounts from '../accounts/index.js'

/**
 * Resellers' names by id, for lists whose rows carry only account_id (orders, top-ups): the
 * services return no name, so one lookup per distinct reseller on the page (at most a page's worth).
 */
export async function resellerNames(db: Database, ids: Iterable<number>): Promise<Record<number, string>> {
  const unique = [...new Set(ids)]
  return Object.fromEntries(await Promise.all(unique.map(async (id) => [id, (await accounts.getAccount(db, id)).name] as const)))
}
