import type { OrderProcess } from '../../db/schema.js'
import { AppError, invalidField } from '../../errors.js'

export type SellableItem = {
  order_process: OrderProcess
  provider: string | null
  provider_active: boolean | null
  min_order: number
  max_order: number | null
}

/**
 * The item checks of a purchase, in its order, for sandbox orders and stock locks (purchase()
 * makes the same ones in SQL): provider on, minimum, maximum, a fulfilment that can take it.
 */
export function refuseUnsellable(item: SellableItem, quantity: number, fulfillable: readonly string[]): void {
  const needsProvider = item.order_process === 'h2h' || item.order_process === 'smm'
  if (item.provider_active === false || (needsProvider && !item.provider)) throw new AppError('PRODUCT_TEMPORARILY_UNAVAILABLE')
  if (quantity < item.min_order) throw new AppError('MINIMUM_ORDER_NOT_MET')
  if (item.max_order !== null && quantity > item.max_order) throw invalidField('quantity', `must be at most ${item.max_order} for this item`)
  if (!fulfillable.includes(item.order_process)) throw new AppError('PRODUCT_TEMPORARILY_UNAVAILABLE')
}
