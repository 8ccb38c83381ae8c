import type { Database } from '../../db/database.js'
import type { BankMutation } from '../../db/schema.js'

/** A mutation as the operator sees it: with its top-up's reference and account beside the id. */
export async function withReference(db: Database, m: BankMutation) {
  const topup =
    m.topup_id === null
      ? undefined
      : await db.selectFrom('topups').select(['reference', 'account_id']).where('id', '=', m.topup_id).executeTakeFirst()
  return { ...m, topup_reference: topup?.reference ?? null, topup_account_id: topup?.account_id ?? null }
}
