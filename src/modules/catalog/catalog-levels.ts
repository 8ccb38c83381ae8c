import type { LevelPriceCell } from './catalog.queries.js'

// The catalog at a price level (docs/design.md §5d): every figure a level changes, from the one row the
// catalog reads per item (catalog.queries.ts), for the listing's snapshot and the detail alike.

/** An item as one level sees it: that level's price, and when it last changed for that level (ms). */
export type PriceAt = { price: number; changedAt: number }

type Priced = { price: number; changed_at: Date; level_prices: LevelPriceCell[] }

/**
 * The item at `levelId`: its level price, changed when the item or that price last changed, whichever
 * is later, so a level's rule change moves that level's delta only. With no level (an operator's view)
 * or no row for it yet: the item's own price.
 */
export function priceAtLevel(row: Priced, levelId: number | undefined): PriceAt {
  const own = row.changed_at.getTime()
  const cell = levelId === undefined ? undefined : row.level_prices.find(([level]) => level === levelId)
  return cell ? { price: cell[1], changedAt: Math.max(own, cell[2]) } : { price: row.price, changedAt: own }
}

/**
 * Whether an item's supplier sources serve at `price` (the floor: a listed source whose floor_price the
 * price reaches, docs/design.md §11c); null for an item without sources.
 */
export function sourcesServeAt(row: { has_sources: boolean; least_floor: number | null }, price: number): boolean | null {
  return row.has_sources ? row.least_floor !== null && price >= row.least_floor : null
}
