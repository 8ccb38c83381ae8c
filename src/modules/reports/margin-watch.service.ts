import type { Database } from '../../db/database.js'
import { reportRange } from './margin.service.js'
import { itemsBlockedByFloor, linesBelowFloor, refusedBills, type FloorBlockedItem } from './margin-watch.queries.js'
import type { MarginWatch, MarginWatchQuery } from './margin-watch.schemas.js'

const total = (rows: { total: number | string }[]) => Number(rows[0]?.total ?? 0)

/**
 * GET /reports/margin-watch (docs/design.md §11c): what sold below cost + the floor margin in the period,
 * the bills the floor refused in it, and the items it keeps from selling now. One rule for the
 * console's Margin watch, the Suppliers page and the CLI.
 */
export async function marginWatch(db: Database, query: MarginWatchQuery, timeZone: string, now = new Date()): Promise<MarginWatch> {
  const { from, to } = reportRange(query, timeZone, now)
  const [lines, bills, items] = await Promise.all([
    linesBelowFloor(db, from, to, timeZone),
    refusedBills(db, from, to, timeZone),
    itemsBlockedByFloor(db),
  ])
  return {
    from,
    to,
    time_zone: timeZone,
    lines: {
      total: total(lines),
      rows: lines.map(({ total: _, ...l }) => {
        const [revenue, cost, floor] = [Number(l.revenue), Number(l.cost), Number(l.floor_margin)]
        return {
          ...l,
          revenue,
          cost,
          floor_margin: floor,
          loss: cost - revenue,
          short_of_floor: cost + floor - revenue,
          cause: l.cause as MarginWatch['lines']['rows'][number]['cause'],
          created_at: l.created_at.toISOString(),
        }
      }),
    },
    bills: {
      total: total(bills),
      rows: bills.map(({ total: _, ...b }) => ({
        ...b,
        amount: Number(b.amount),
        supplier_price: b.supplier_price === null ? null : Number(b.supplier_price),
        cause: 'bill' as const,
        created_at: b.created_at.toISOString(),
      })),
    },
    items: blockedSection(items),
  }
}

const blockedSection = (items: FloorBlockedItem[]) => ({
  total: total(items),
  rows: items.map(({ total: _, ...i }) => ({
    ...i,
    price: Number(i.price),
    cheapest_cost: Number(i.cheapest_cost),
    floor_margin: Number(i.floor_margin),
  })),
})

/** Margin watch's items section alone: what the floor keeps from selling now (the Suppliers page lists it too). */
export async function floorBlockedItems(db: Database): Promise<MarginWatch['items']> {
  return blockedSection(await itemsBlockedByFloor(db))
}
