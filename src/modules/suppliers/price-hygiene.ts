import type { Insertable } from 'kysely'
import type { SupplierChangesTable } from '../../db/schema.js'
import type { ListedProduct } from '../../providers/price-list.js'
import { MAX_MONEY } from '../ledger/index.js'

// docs/design.md §11c, price-list hygiene, pure: which listed prices a sync holds instead of applying.

/** A panel's rate per 1,000 may be fractional; more digits than this are no price anyone charges. */
const RATE_DECIMALS = 6

export type HeldReason = 'invalid' | 'jump'

/**
 * Whether a listed price (a plain decimal string) can be applied: Digiflazz's prices are positive
 * whole Rupiah (a postpaid admin fee may be 0: a bill without fee), a panel's rate per 1,000 is
 * positive with at most 6 decimals; neither above MAX_MONEY.
 */
export function validPrice(kind: string, postpaid: boolean, price: string): boolean {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(price)
  if (!m) return false
  const decimals = m[2]?.length ?? 0
  const value = Number(price)
  if (!(value <= MAX_MONEY)) return false
  if (kind === 'smm_panel') return value > 0 && decimals <= RATE_DECIMALS
  return decimals === 0 && (value > 0 || postpaid)
}

/**
 * Why a sync holds this listed price, or undefined to apply it: out of the bounds, or moved more
 * than `jumpPercent` from the last applied price. A last price that is itself not valid (a 0 kept
 * from before this check) is no base to measure a jump from.
 */
export function heldReason(
  kind: string,
  postpaid: boolean,
  lastApplied: string | undefined,
  listed: string,
  jumpPercent: number,
): HeldReason | undefined {
  if (!validPrice(kind, postpaid, listed)) return 'invalid'
  if (lastApplied === undefined || !validPrice(kind, postpaid, lastApplied)) return undefined
  const before = Number(lastApplied)
  if (before > 0 && Math.abs(Number(listed) - before) * 100 > jumpPercent * before) return 'jump'
  return undefined
}

export type Known = { code: string; price: number; active: boolean; gone_at: Date | string | null }
export type Change = Omit<Insertable<SupplierChangesTable>, 'provider' | 'sync_id' | 'at'>
type OpenHold = { id: number; code: string; new_value: string | null }

/**
 * The list as it will be applied (docs/design.md §11c): an entry whose price is held keeps the last applied
 * price (a new one is left out), logged once as `held`; an open hold still matching the list is
 * not logged again, one the list moved away from is closed (`closing`).
 */
export function holdPrices(
  kind: string,
  known: Known[],
  listed: ListedProduct[],
  openHolds: OpenHold[],
  jumpPercent: number,
): { applied: ListedProduct[]; held: Change[]; closing: number[] } {
  const before = new Map(known.map((k) => [k.code, k]))
  const holds = new Map(openHolds.map((h) => [h.code, h]))
  const applied: ListedProduct[] = []
  const held: Change[] = []
  const closing: number[] = []
  for (const p of listed) {
    const k = before.get(p.code)
    const last = k === undefined ? undefined : String(k.price)
    const hold = holds.get(p.code)
    let keep = hold !== undefined && hold.new_value === p.price
    if (hold && !keep) closing.push(hold.id)
    if (!keep && (last === undefined || Number(last) !== Number(p.price))) {
      const reason = heldReason(kind, p.postpaid, last, p.price, jumpPercent)
      if (reason)
        held.push({ code: p.code, kind: 'held', old_value: last ?? null, new_value: p.price, held_reason: reason, hold_open: true })
      keep = reason !== undefined
    }
    if (!keep) applied.push(p)
    else if (last !== undefined) applied.push({ ...p, price: last })
  }
  return { applied, held, closing }
}
