import type { Trx } from '../../db/database.js'
import type { PriceListRead } from '../../providers/price-list.js'
import { applyList } from './apply-list.queries.js'
import { importWithin, type ImportResult } from './import.service.js'
import { insertRule, type RuleTermsInput } from './pricing-rules.queries.js'
import { claimSync } from './sync-claims.queries.js'

/**
 * A provider's catalog from a list already read (the demo: its simulators' lists), in the caller's
 * transaction: the list applied as a sync applies it (and recorded as one), a provider-wide pricing
 * rule, and an item per listed product nothing is bought from yet, priced by that rule.
 */
export async function importListWithin(
  trx: Trx,
  provider: string,
  read: PriceListRead & { ok: true },
  rule: RuleTermsInput,
): Promise<ImportResult> {
  const syncId = await claimSync(trx, provider, 0)
  // A first list has no applied price to jump from: only prices out of bounds are held.
  if (syncId === undefined || !(await applyList(trx, syncId, provider, read, Number.POSITIVE_INFINITY)))
    throw new Error(`the list of ${provider} is being synced by another process`)
  await insertRule(trx, { scope: 'provider', provider, category: null, brand: null, item_id: null }, rule)
  return importWithin(trx, provider, { codes: read.products.map((p) => p.code) })
}
