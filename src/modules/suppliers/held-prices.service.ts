import { inTransaction, type Database } from '../../db/database.js'
import { AppError } from '../../errors.js'
import { applyHeldPrice, decide, holdForDecision, listHeld, type HeldStatus } from './held-prices.queries.js'
import { validPrice } from './price-hygiene.js'
import { reprice } from './reprice.service.js'
import { providerExists } from './supplier-products.queries.js'

export type { HeldStatus }

export async function heldPrices(db: Database, provider: string, f: { status?: HeldStatus; page: number; perPage: number }) {
  if (!(await providerExists(db, provider))) throw new AppError('PROVIDER_NOT_FOUND')
  return listHeld(db, provider, f)
}

const refused = (sentence: string) => new AppError('HELD_PRICE_DECIDED', { fieldErrors: { id: [sentence] }, detail: sentence })

/**
 * Approves or rejects one held price (docs/design.md §11c). Approved: the product takes the listed price
 * and its items are repriced, as a sync's price change does; rejected: the list's same price is
 * ignored until the list moves it again. Answers how many items were repriced.
 */
export async function decideHeldPrice(db: Database, provider: string, id: number, decision: 'approved' | 'rejected') {
  return inTransaction(db, async (trx) => {
    if (!(await providerExists(trx, provider))) throw new AppError('PROVIDER_NOT_FOUND')
    const hold = await holdForDecision(trx, provider, id)
    if (!hold) throw new AppError('HELD_PRICE_NOT_FOUND')
    if (hold.decision) throw refused(`held price ${id} was ${hold.decision} already`)
    if (!hold.hold_open) throw refused(`held price ${id} was replaced by a later list; decide on the newest one`)
    await decide(trx, id, decision)
    if (decision === 'rejected') return { id, code: hold.code, decision, repriced: 0 }
    const listed = hold.new_value ?? ''
    if (hold.old_value === null || hold.postpaid === null || !validPrice(hold.kind, hold.postpaid, listed))
      throw refused(
        `held price ${id} (${listed}) is not a price that can be applied: reject it, or wait for the supplier to correct its list`,
      )
    await applyHeldPrice(trx, provider, { code: hold.code, old_value: hold.old_value, new_value: listed, sync_id: hold.sync_id })
    const repriced = await reprice(trx, { provider, codes: [hold.code] })
    return { id, code: hold.code, decision, repriced }
  })
}
