import { prepaidEntry, type DigiflazzPriceLists } from './digiflazz-price-list.simulator.js'

type PrepaidList = DigiflazzPriceLists['prepaid']

const BRANDS = [
  ['Pulsa', 'TELKOMSEL'],
  ['Pulsa', 'INDOSAT'],
  ['Data', 'XL'],
  ['Games', 'MOBILE LEGENDS'],
  ['Games', 'FREE FIRE'],
  ['E-Money', 'DANA'],
  ['E-Money', 'OVO'],
  ['PLN', 'PLN'],
] as const

/** The code of the i-th bulk product (1-based): bulk00001 … */
export const bulkCode = (i: number) => `bulk${String(i).padStart(5, '0')}`

/** The i-th bulk product's first price: 1,000 to 250,900 in steps of 100, spread over the list. */
const firstPrice = (i: number) => 1_000 + ((i * 37) % 2_500) * 100

/**
 * Adds `count` prepaid products (bulk00001 …) to a simulated list: a supplier's list the size of a
 * real one, for the sync bench and the crash drill.
 */
export function addBulkProducts(list: PrepaidList, count: number): void {
  for (let i = 1; i <= count; i++) {
    const [category, brand] = BRANDS[i % BRANDS.length]
    list.add(prepaidEntry(bulkCode(i), `${brand} ${category} ${i}`, category, brand, firstPrice(i)))
  }
}

/** Which share of the bulk products `steerBulkProducts` changes, each product at most one way. */
export type BulkSteering = { repricedPercent: number; offPercent: number; gonePercent: number }

/**
 * Steers the bulk products as a supplier's next list does: by each code's number modulo 100, the
 * first `repricedPercent` get a new price (+ 2 % rounded to 100, never the old one), the next
 * `offPercent` are switched off at the seller, the next `gonePercent` leave the list. Answers the
 * codes of each.
 */
export function steerBulkProducts(list: PrepaidList, count: number, s: BulkSteering) {
  const repriced: string[] = []
  const off: string[] = []
  const gone: string[] = []
  for (let i = 1; i <= count; i++) {
    const code = bulkCode(i)
    const slot = i % 100
    if (slot < s.repricedPercent) {
      list.change(code, { price: firstPrice(i) + Math.max(100, Math.round((firstPrice(i) * 0.02) / 100) * 100) })
      repriced.push(code)
    } else if (slot < s.repricedPercent + s.offPercent) {
      list.change(code, { seller_product_status: false })
      off.push(code)
    } else if (slot < s.repricedPercent + s.offPercent + s.gonePercent) {
      list.remove(code)
      gone.push(code)
    }
  }
  return { repriced, off, gone }
}
