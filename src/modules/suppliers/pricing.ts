import type { PricingScope } from '../../db/schema.js'
import { MAX_MONEY } from '../ledger/index.js'

// docs/design.md §11b's price formula and rule matching, pure. Decimals are exact (BigInt over a power of
// ten): 10,000 × 1.1 must be 11,000, never 11,001 after a float's rounding error is rounded up.

/** A non-negative decimal: n / 10^scale. */
type Decimal = { n: bigint; scale: number }

function decimalOf(value: string | number): Decimal {
  const text = typeof value === 'number' ? value.toFixed(12) : value.trim()
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text)
  if (!m) throw new Error(`not a non-negative decimal: ${text}`)
  const fraction = m[2] ?? ''
  return { n: BigInt(m[1]! + fraction), scale: fraction.length }
}

function textOf({ n, scale }: Decimal): string {
  const digits = n.toString().padStart(scale + 1, '0')
  if (scale === 0) return digits
  const fraction = digits.slice(-scale).replace(/0+$/, '')
  return fraction ? `${digits.slice(0, -scale)}.${fraction}` : digits.slice(0, -scale)
}

const TEN = 10n
const pow10 = (k: number) => TEN ** BigInt(k)

/** ceil(n / d) for positive d and non-negative n. */
const ceilDiv = (n: bigint, d: bigint) => (n + d - 1n) / d

/** The least multiple of `step` at or above n / d. */
const roundUp = (n: bigint, d: bigint, step: number) => ceilDiv(n, d * BigInt(step)) * BigInt(step)

export type RuleTerms = { percent: string | number; flat: number; round_to: number; min_margin: number }

/**
 * price = round_up(cost × (1 + percent/100) + flat, round_to), never below cost + min_margin (itself
 * rounded up to the step). Without a rule the price stays where it is, raised to the cost when the
 * cost passes it (an import has no price yet: it starts at the cost), so nothing sells at a loss.
 */
export function priceFor(costText: string | number, rule: RuleTerms | undefined, current?: number): number {
  // No price passes the money maximum (money_max()): a markup on a cost near it stops there.
  return Math.min(markedPrice(costText, rule, current), MAX_MONEY)
}

function markedPrice(costText: string | number, rule: RuleTerms | undefined, current?: number): number {
  const cost = decimalOf(costText)
  if (!rule) return Math.max(current ?? 0, Number(ceilDiv(cost.n, pow10(cost.scale))))
  const percent = decimalOf(rule.percent)
  // cost × (100 + percent) / 100 + flat, all over one denominator.
  const d = pow10(cost.scale + percent.scale) * 100n
  const n = cost.n * (100n * pow10(percent.scale) + percent.n) + BigInt(rule.flat) * d
  const marked = roundUp(n, d, rule.round_to)
  const floorD = pow10(cost.scale)
  const floor = roundUp(cost.n + BigInt(rule.min_margin) * floorD, floorD, rule.round_to)
  return Number(marked > floor ? marked : floor)
}

export type Rule = RuleTerms & {
  id: number
  scope: PricingScope
  provider: string | null
  category: string | null
  brand: string | null
  item_id: number | null
}

/** What a rule is matched against: the item and the supplier product of its first serving source. */
export type PricedProduct = { item_id: number; provider: string; category: string; brand: string }

const same = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase()

/** How specific a matching rule is (higher wins); undefined when it does not match. */
function specificity(rule: Rule, p: PricedProduct): number | undefined {
  if (rule.scope === 'item') return rule.item_id === p.item_id ? 4 : undefined
  if (rule.provider !== p.provider) return undefined
  if (rule.scope === 'brand') {
    if (!same(rule.brand, p.brand)) return undefined
    if (rule.category === null) return 2
    return same(rule.category, p.category) ? 3 : undefined
  }
  if (rule.scope === 'category') return same(rule.category, p.category) ? 1 : undefined
  return 0
}

/** The most specific rule for a product: item > brand (with its category) > brand > category > provider. */
export function ruleFor(rules: readonly Rule[], p: PricedProduct): Rule | undefined {
  let best: Rule | undefined
  let bestRank = -1
  for (const rule of rules) {
    const rank = specificity(rule, p)
    // Equal ranks differ only by case of a name: the older rule keeps governing.
    if (rank !== undefined && (rank > bestRank || (rank === bestRank && best !== undefined && rule.id < best.id))) {
      best = rule
      bestRank = rank
    }
  }
  return best
}

/** Whether two decimal texts are the same number ("19500" and "19500.00"). */
export function sameDecimal(a: string | number, b: string | number): boolean {
  return textOf(decimalOf(a)) === textOf(decimalOf(b))
}
