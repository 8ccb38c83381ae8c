import { inTransaction, type Database, type Trx } from '../../db/database.js'
import { setSupplierPrices, type SupplierPrice } from '../catalog/index.js'
import { priceFor, ruleFor, sameDecimal } from './pricing.js'
import { rulesFor } from './pricing-rules.queries.js'
import { firstServingSources, type RepriceTarget } from './serving-sources.queries.js'

/**
 * Recomputes the cost (from the first serving source), the price and the floor margin (by the item's
 * rule) of the targeted items in the caller's transaction, in a fixed number of statements whatever
 * their count, and writes only what changed (a locked price stays). Answers how many items were written.
 */
export async function reprice(trx: Trx, target: RepriceTarget): Promise<number> {
  const sources = await firstServingSources(trx, target)
  if (sources.length === 0) return 0
  const rules = await rulesFor(
    trx,
    [...new Set(sources.map((s) => s.provider))],
    sources.map((s) => s.item_id),
  )
  const changed: SupplierPrice[] = []
  for (const s of sources) {
    const cost = s.unit_cost
    const rule = ruleFor(rules, s)
    const price = priceFor(cost, rule, s.price)
    const minMargin = rule?.min_margin ?? null
    if (s.cost === null || !sameDecimal(s.cost, cost) || s.price !== price || s.min_margin !== minMargin)
      changed.push({ id: s.item_id, cost, price, min_margin: minMargin })
  }
  return (await setSupplierPrices(trx, changed)).length
}

/** Reprices these items (or every item with a source) after their sources or their rules changed. */
export function repriceItems(trx: Trx, itemIds: number[] | 'all'): Promise<number> {
  return reprice(trx, itemIds === 'all' ? 'all' : { itemIds })
}

/**
 * After a sync, in its transaction: the items bought from products whose price, status or listing
 * changed are repriced. Those whose product was switched off or on, gone or back are stamped changed in
 * the catalog by supplier_products' trigger (catalog-clock.sql), so delta sync sees both.
 */
export async function followSupplierChanges(trx: Trx, provider: string, changes: { changedCodes: string[] }) {
  if (changes.changedCodes.length > 0) await reprice(trx, { provider, codes: changes.changedCodes })
}

/** repriceItems as a use case of its own (an operator unlocked a price): its own transaction. */
export function repriceItemsNow(db: Database, itemIds: number[]): Promise<number> {
  return inTransaction(db, (trx) => reprice(trx, { itemIds }))
}

/**
 * After a provider was switched on or off: the items bought from it, whose first serving source may have
 * moved. The switch itself put them all in the catalog's next delta (providers' trigger, catalog/catalog-clock.sql).
 */
export function repriceProviderNow(db: Database, provider: string): Promise<number> {
  return inTransaction(db, (trx) => reprice(trx, { provider }))
}
