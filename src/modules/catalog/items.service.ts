import { inTransaction, type Database, type Trx } from '../../db/database.js'
import { holdAdvisoryLock } from '../../db/functions/advisory-locks.js'
import type { OrderProcess, ProviderMeta, RequiredField } from '../../db/schema.js'
import { AppError, invalidField } from '../../errors.js'
import { randomToken, type Vault } from '../../vault.js'
import { findVariant, holdItemExclusively } from './catalog.queries.js'
import { operatorItem } from './catalog.service.js'
import { ensureCategory } from './category-slug.js'
import {
  insertItems,
  insertNewLicenses,
  lockItem,
  lockItemProcess,
  productIdNamed,
  providerExists,
  updateItemRow,
} from './items.queries.js'

export type ItemInput = {
  product_name: string
  name: string
  category?: string
  price: number
  order_process: OrderProcess
  sku?: string
  min_order?: number
  max_order?: number | null
  unlimited_stock?: boolean
  stock?: number
  provider?: string | null
  provider_code?: string | null
  provider_meta?: ProviderMeta
  required_fields?: RequiredField[] | null
  description?: string
  active?: boolean
}

async function productIdFor(trx: Trx, categoryName: string, productName: string): Promise<number> {
  await ensureCategory(trx, categoryName)
  return productIdNamed(trx, categoryName, productName)
}

async function checkProvider(trx: Trx, code: string | null | undefined) {
  if (!code) return
  if (!(await providerExists(trx, code))) throw invalidField('provider', `no provider registered with code "${code}"`)
}

// Two operators (or a retried request) can pass the clash check at once; the UNIQUE index decides.
async function skuGuard<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (error) {
    const e = error as { code?: string; constraint?: string }
    if (e.code === '23505' && e.constraint === 'items_sku_key') throw invalidField('sku', 'is already used by another item')
    throw error
  }
}

// JSON columns too take only the keys they know: a body's extra keys are never stored.
const providerMetaJson = (m: ProviderMeta) =>
  JSON.stringify({
    open_denom: m.open_denom,
    min_qty: m.min_qty,
    max_qty: m.max_qty,
    step_qty: m.step_qty,
    price_unit: m.price_unit,
    qty_label: m.qty_label,
    validation: m.validation,
    requires_zone_id: m.requires_zone_id,
    postpaid: m.postpaid,
  })
const requiredFieldsJson = (fields: RequiredField[] | null) =>
  fields ? JSON.stringify(fields.map((f) => ({ key: f.key, label: f.label, required: f.required }))) : null

function checkStockRules(input: {
  order_process: OrderProcess
  unlimited_stock?: boolean
  stock?: number
  min_order?: number
  max_order?: number | null
}) {
  if (input.order_process === 'auto' && input.unlimited_stock) throw invalidField('unlimited_stock', "an auto item's stock is its licenses")
  if (input.order_process === 'auto' && input.stock !== undefined)
    throw invalidField('stock', "an auto item's stock is its licenses; add licenses instead")
  if (input.max_order != null && input.max_order < (input.min_order ?? 1)) throw invalidField('max_order', 'must be at least min_order')
}

export async function createItem(db: Database, input: ItemInput) {
  const id = await inTransaction(db, (trx) => createItemWithin(trx, input))
  return getAdminItem(db, id)
}

export type ItemChanges = Partial<Omit<ItemInput, 'order_process' | 'product_name' | 'category'>> & {
  /** A locked price is the operator's: supplier cost changes and pricing rules leave it (docs/design.md §11b). */
  price_locked?: boolean
  /** The item may sell below cost + the floor margin (a promotion, docs/design.md §11c). */
  allow_loss?: boolean
}

/** Only the columns named here can change: never the id, the product or the order_process. */
export async function updateItem(db: Database, itemId: number, changes: ItemChanges) {
  const {
    sku,
    name,
    price,
    min_order,
    max_order,
    unlimited_stock,
    stock,
    provider,
    provider_code,
    provider_meta,
    required_fields,
    description,
    active,
    price_locked,
    allow_loss,
  } = changes
  const columns = {
    sku,
    name,
    price,
    min_order,
    max_order,
    unlimited_stock,
    stock,
    provider,
    provider_code,
    provider_meta: provider_meta === undefined ? undefined : providerMetaJson(provider_meta),
    required_fields: required_fields === undefined ? undefined : requiredFieldsJson(required_fields),
    description,
    active,
    price_locked,
    allow_loss,
  }
  if (Object.values(columns).every((v) => v === undefined)) return getAdminItem(db, itemId)
  await inTransaction(db, async (trx) => {
    await holdItemExclusively(trx, itemId)
    const item = await lockItem(trx, itemId)
    if (!item) throw new AppError('ITEM_NOT_FOUND')
    checkStockRules({
      order_process: item.order_process,
      unlimited_stock: unlimited_stock ?? item.unlimited_stock,
      stock,
      min_order: min_order ?? item.min_order,
      max_order: max_order === undefined ? item.max_order : max_order,
    })
    await checkProvider(trx, provider)
    await skuGuard(
      updateItemRow(trx, itemId, {
        ...columns,
        // A price typed by hand on a supplier-priced item (it has a cost) stays: it locks unless the body says otherwise.
        price_locked: price_locked ?? (price !== undefined && item.cost !== null ? true : undefined),
      }),
    )
  })
  return getAdminItem(db, itemId)
}

/** An operator's view: the catalog variant plus whether it is active (one query, like the list). */
export async function getAdminItem(db: Database, itemId: number) {
  const row = await findVariant(db, itemId, { activeOnly: false })
  if (!row) throw new AppError('ITEM_NOT_FOUND')
  return operatorItem(row)
}

/**
 * Adds auto stock. Each license is stored encrypted with its HMAC fingerprint; a voucher already in
 * the store's stock, in any item and sold or not, is skipped and counted as a duplicate.
 */
export async function addLicenses(db: Database, vault: Vault, itemId: number, licenses: string[]) {
  return inTransaction(db, (trx) => addLicensesWithin(trx, vault, itemId, licenses))
}

/** addLicenses inside the caller's transaction (the demo seed runs in one). */
export async function addLicensesWithin(trx: Trx, vault: Vault, itemId: number, licenses: string[]) {
  const cleaned = licenses.map((l) => l.trim())
  const blank = cleaned.findIndex((l) => l.length === 0)
  if (blank >= 0) throw invalidField(`licenses.${blank}`, 'must not be blank')
  await holdItemExclusively(trx, itemId)
  const item = await lockItemProcess(trx, itemId)
  if (!item) throw new AppError('ITEM_NOT_FOUND')
  if (item.order_process !== 'auto') throw invalidField('licenses', 'only auto items hold licenses')
  // One batch at a time store-wide: two batches registering shared fingerprints in other orders would deadlock.
  await holdAdvisoryLock(trx, 'licenseIntake')
  const unique = [...new Map(cleaned.map((l) => [vault.fingerprint(l), l]))]
  let added = 0
  for (let i = 0; i < unique.length; i += 1000) {
    const batch = unique.slice(i, i + 1000)
    // Only vouchers new to the registry are stocked (migration 0180).
    added += await insertNewLicenses(
      trx,
      itemId,
      batch.map(([fingerprint, l]) => ({ fingerprint, contentEnc: vault.encrypt(l) })),
    )
  }
  return { item_id: itemId, added, duplicates: cleaned.length - added }
}

/** createItem inside the caller's transaction (the demo seed runs in one): the same checks and columns. Answers the id. */
// The row of a new item: every column named, defaults applied, JSON columns with their known keys only.
function newItemRow(productId: number, input: ItemInput) {
  return {
    product_id: productId,
    sku:
      input.sku ??
      `SKU-${randomToken(6)
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, 'X')}`,
    name: input.name,
    price: input.price,
    order_process: input.order_process,
    min_order: input.min_order ?? 1,
    max_order: input.max_order ?? null,
    unlimited_stock: input.unlimited_stock ?? false,
    stock: input.stock ?? 0,
    active: input.active ?? true,
    provider: input.provider ?? null,
    provider_code: input.provider_code ?? null,
    provider_meta: providerMetaJson(input.provider_meta ?? {}),
    required_fields: requiredFieldsJson(input.required_fields ?? null),
    description: input.description ?? '',
  }
}

export async function createItemWithin(trx: Trx, input: ItemInput): Promise<number> {
  // An operator's item has no supplier cost: a body's stray cost or min_margin is never stored.
  return (await createItemsWithin(trx, [{ ...input, cost: undefined, min_margin: undefined }]))[0]!
}

const INSERT_CHUNK = 500

/**
 * Many items in the caller's transaction (a supplier's import): each category and product found or
 * made once, the rows inserted in chunks (stamped and announced by items' triggers, catalog-clock.sql).
 * Answers the ids in input order.
 */
export async function createItemsWithin(
  trx: Trx,
  inputs: readonly (ItemInput & { cost?: string; min_margin?: number | null })[],
): Promise<number[]> {
  inputs.forEach(checkStockRules)
  for (const provider of new Set(inputs.map((i) => i.provider))) await checkProvider(trx, provider)
  const products = new Map<string, number>()
  const rows = []
  for (const input of inputs) {
    const category = input.category?.trim() || 'Uncategorized'
    const key = JSON.stringify([category, input.product_name])
    let productId = products.get(key)
    if (productId === undefined) products.set(key, (productId = await productIdFor(trx, category, input.product_name)))
    // A supplier's cost and its rule's floor margin are written with the row: an UPDATE after would
    // lock every new item (thousands in an import).
    rows.push({ ...newItemRow(productId, input), cost: input.cost ?? null, min_margin: input.min_margin ?? null })
  }
  const ids = new Map<string, number>()
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const inserted = await skuGuard(insertItems(trx, rows.slice(i, i + INSERT_CHUNK)))
    for (const r of inserted) ids.set(r.sku, r.id)
  }
  return rows.map((r) => ids.get(r.sku)!)
}
