import type { Trx } from '../../db/database.js'
import type { OrderProcess, ProviderKind } from '../../db/schema.js'
import { AppError } from '../../errors.js'
import { holdItemExclusively } from './catalog.queries.js'
import { lockItemSourcing, pointItemAt } from './items.queries.js'

/**
 * Locks an item whose supplier sources are about to change (its gate, then its row, as every writer
 * of items: checkout/purchase.sql's lock order) and answers its order process and the kind of provider
 * that process buys from (provider_kind_of(), sources.sql; null: none); ITEM_NOT_FOUND when there is none.
 */
export async function lockItemForSources(
  trx: Trx,
  itemId: number,
): Promise<{ order_process: OrderProcess; provider_kind: ProviderKind | null }> {
  await holdItemExclusively(trx, itemId)
  const item = await lockItemSourcing(trx, itemId)
  if (!item) throw new AppError('ITEM_NOT_FOUND')
  return item
}

/**
 * Points an item's provider and code at its first source (docs/design.md §11b), so the operator's item view
 * and the paths that read items.provider agree with item_sources. Left as it is without a source.
 */
export async function followFirstSource(trx: Trx, itemId: number, first: { provider: string; code: string } | undefined): Promise<void> {
  if (!first) return
  await pointItemAt(trx, itemId, first)
}
