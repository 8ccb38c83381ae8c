import type { Database, Trx } from '../../db/database.js'
import type { OrderProcess } from '../../db/schema.js'
import { inTransaction } from '../../db/database.js'
import { AppError, invalidField } from '../../errors.js'
import { createItemsWithin } from '../catalog/index.js'
import {
  holdProviderForImport,
  linkSources,
  selectedProducts,
  usedSkus,
  type ImportableProduct,
  type ImportSelection,
} from './import.queries.js'
import { validPrice } from './price-hygiene.js'
import { priceFor, ruleFor, type Rule } from './pricing.js'
import { rulesFor } from './pricing-rules.queries.js'

export type ImportRequest = ImportSelection & { dry_run?: boolean }
type Priced = { cost: string; price: number; rule: Rule | undefined }
type Created = {
  id: number | null
  sku: string
  code: string
  name: string
  category: string
  cost: number
  price: number
  rule_id: number | null
}
export type ImportResult = {
  provider: string
  dry_run: boolean
  created: Created[]
  skipped: { code: string; name: string; item_id: number | null; reason: SkipReason }[]
  skipped_count: Record<SkipReason, number>
  not_found: string[]
}
type SkipReason = 'linked' | 'held' | 'invalid_price'

// A dry run does everything, then rolls back: what it answers is exactly what the import would do.
class DryRun extends Error {
  constructor(readonly result: ImportResult) {
    super('dry run')
  }
}

const SKU_MAX = 64
const skuBase = (provider: string, code: string) =>
  `${provider}-${code}`
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .slice(0, SKU_MAX - 4)

/** A SKU per product from its provider and code, made unique with -2, -3… where one is taken. */
async function skusFor(trx: Trx, provider: string, products: ImportableProduct[]): Promise<string[]> {
  const bases = products.map((p) => skuBase(provider, p.code))
  // Every SKU taken that a base or its numbered forms could clash with, read once.
  const taken = await usedSkus(trx, bases)
  const skus: string[] = []
  for (const base of bases) {
    let sku = base
    for (let n = 2; taken.has(sku); n++) sku = `${base}-${n}`
    taken.add(sku)
    skus.push(sku)
  }
  return skus
}

function itemInput(process: OrderProcess, provider: string, p: ImportableProduct, sku: string, priced: Priced) {
  const smm = process === 'smm'
  const { cost, price } = priced
  return {
    cost,
    min_margin: priced.rule?.min_margin ?? null,
    category: p.category || 'Uncategorized',
    product_name: p.brand || p.category || p.name,
    name: p.name,
    sku,
    price,
    order_process: process,
    unlimited_stock: true,
    // A panel's quantities are the item's (a line's quantity is sent as the order's); Digiflazz sells one per unit.
    min_order: smm && p.min_quantity ? p.min_quantity : undefined,
    max_order: smm && p.max_quantity ? p.max_quantity : undefined,
    provider,
    provider_code: p.code,
    provider_meta: p.postpaid ? { postpaid: true } : {},
  }
}

export async function importWithin(trx: Trx, provider: string, sel: ImportRequest): Promise<ImportResult> {
  const source = await holdProviderForImport(trx, provider)
  if (!source) throw new AppError('PROVIDER_NOT_FOUND')
  const { kind, order_process: process } = source
  const products = await selectedProducts(trx, provider, sel)
  const listed = new Set(products.map((p) => p.code))
  // Nothing is sold from a price the operator has not accepted, nor at Rp 0 (docs/design.md §11c).
  const skipOf = (p: ImportableProduct): SkipReason | undefined =>
    p.linked_item !== null ? 'linked' : p.held ? 'held' : validPrice(kind, p.postpaid, p.list_price) ? undefined : 'invalid_price'
  const reasons = products.map(skipOf)
  const fresh = products.filter((_, i) => reasons[i] === undefined)
  const skipped = products.flatMap((p, i) => {
    const reason = reasons[i]
    return reason ? [{ code: p.code, name: p.name, item_id: p.linked_item, reason }] : []
  })
  const rules = await rulesFor(trx, [provider], [])
  const skus = await skusFor(trx, provider, fresh)
  const priced = fresh.map((p) => {
    const cost = p.unit_cost
    const rule = ruleFor(rules, { item_id: 0, provider, category: p.category, brand: p.brand })
    return { cost, rule, price: priceFor(cost, rule) }
  })
  const ids = await createItemsWithin(
    trx,
    fresh.map((p, i) => itemInput(process, provider, p, skus[i]!, priced[i]!)),
  )
  const created: Created[] = fresh.map((p, i) => ({
    id: ids[i]!,
    sku: skus[i]!,
    code: p.code,
    name: p.name,
    category: p.category,
    cost: Number(priced[i]!.cost),
    price: priced[i]!.price,
    rule_id: priced[i]!.rule?.id ?? null,
  }))
  await linkSources(
    trx,
    provider,
    ids.map((id, i) => ({ itemId: id, code: fresh[i]!.code })),
  )
  return {
    provider,
    dry_run: sel.dry_run ?? false,
    created,
    skipped,
    skipped_count: {
      linked: skipped.filter((x) => x.reason === 'linked').length,
      held: skipped.filter((x) => x.reason === 'held').length,
      invalid_price: skipped.filter((x) => x.reason === 'invalid_price').length,
    },
    not_found: (sel.codes ?? []).filter((c) => !listed.has(c)),
  }
}

/**
 * POST /providers/{code}/import (docs/design.md §11b): an item per selected supplier product not yet linked,
 * named and categorised from the list, bought from it (item_sources priority 1), at its cost and the
 * price its rule gives, all in one transaction. Importing again creates nothing new.
 */
export async function importProducts(db: Database, provider: string, sel: ImportRequest): Promise<ImportResult> {
  if (![sel.categories, sel.brands, sel.types, sel.codes].some((s) => s && s.length > 0))
    throw invalidField('codes', 'choose products: give categories, brands, types or codes (at least one)')
  try {
    return await inTransaction(db, async (trx) => {
      const result = await importWithin(trx, provider, sel)
      if (sel.dry_run) throw new DryRun({ ...result, created: result.created.map((c) => ({ ...c, id: null })) })
      return result
    })
  } catch (error) {
    if (error instanceof DryRun) return error.result
    throw error
  }
}
