import type { Database } from '../../db/database.js'
import type { OrderProcess, ProviderMeta, RequiredField } from '../../db/schema.js'
import { AppError, invalidField } from '../../errors.js'
import { ok, paginate } from '../../http/envelope.js'
import { priceAtLevel, sourcesServeAt, type PriceAt } from './catalog-levels.js'
import { entriesAt, type CatalogEntry, type CatalogSnapshot } from './catalog-snapshot.js'
import { countVariants, findVariant, listVariants, type VariantFilter, type VariantRow } from './catalog.queries.js'
import type { CatalogQuery, Variant } from './catalog.schemas.js'

const DEFAULT_FIELDS: Record<string, RequiredField[]> = {
  auto: [],
  manual: [],
  h2h: [{ key: 'note', label: 'Customer number or game account id', required: true }],
  smm: [{ key: 'note', label: 'Target link or username', required: true }],
}

/** An open denomination's form: the target, and the nominal within its bounds (as check_cart_line() enforces them). */
const openDenomFields = (meta: ProviderMeta): Variant['required_fields'] => [
  ...DEFAULT_FIELDS.h2h,
  {
    key: 'provider_qty',
    label: meta.qty_label ?? 'Nominal',
    required: true,
    min: meta.min_qty ?? 1,
    max: meta.max_qty ?? 999_999_999,
    step: meta.step_qty ?? 1,
  },
]

// A postpaid bill is asked for and paid by its customer number (POST /v1/trx/tagihan, docs/design.md §5c).
const POSTPAID_FIELDS: Variant['required_fields'] = [{ key: 'customer_id', label: 'Customer number (ID pelanggan)', required: true }]

/** Where a validation is asked for, as the catalog's and the validation services' `validation` name it. */
export const VALIDATE_ENDPOINT = '/api/v1/item/validate'

export type ValidationField = { key: string; label: string; required: boolean }

/** What POST /v1/item/validate asks for, in the public docs' `[{ key, label, required }]` shape (as required_fields). */
export function validationFields(requiresZone: boolean): ValidationField[] {
  const customer = { key: 'customer_id', label: 'User ID or customer number', required: true }
  return requiresZone ? [customer, { key: 'zone_id', label: 'Zone ID (server)', required: true }] : [customer]
}

/** provider_meta as resellers see it: in the catalog, and in an order's h2h results. */
export function publicProviderMeta(stored: ProviderMeta | null, orderProcess: OrderProcess): Variant['provider_meta'] {
  const meta = stored ?? {}
  const openDenom = orderProcess === 'h2h' && meta.open_denom === true
  return {
    open_denom: openDenom,
    min_qty: meta.min_qty ?? null,
    max_qty: meta.max_qty ?? null,
    step_qty: meta.step_qty ?? null,
    ...(openDenom && { price_unit: meta.price_unit ?? 1, qty_label: meta.qty_label ?? null }),
  }
}

/** A variant as resellers see it, at a level's price (`at`; default the item's own, as operators see it). */
export function toVariant(row: VariantRow, at: PriceAt = priceAtLevel(row, undefined)): Variant {
  const meta = row.provider_meta ?? {}
  const openDenom = row.order_process === 'h2h' && meta.open_denom === true
  const postpaid = row.order_process === 'h2h' && meta.postpaid === true
  // Whether it offers account validation is the database's answer (offers_validation(), sources.sql).
  const validates = row.offers_validation
  const requiresZone = meta.requires_zone_id === true
  return {
    id: row.id,
    sku: row.sku,
    name: row.name,
    price: at.price,
    stock: row.unlimited_stock ? null : Number(row.available ?? 0),
    unlimited_stock: row.unlimited_stock,
    min_order: row.min_order,
    max_order: row.max_order,
    order_process: row.order_process,
    status: row.active && (sourcesServeAt(row, at.price) ?? row.provider_active !== false) ? 'on' : 'off',
    h2h_provider: row.provider,
    provider_meta: publicProviderMeta(row.provider_meta, row.order_process),
    postpaid,
    required_fields:
      row.required_fields ?? (postpaid ? POSTPAID_FIELDS : openDenom ? openDenomFields(meta) : DEFAULT_FIELDS[row.order_process]),
    validation: {
      available: validates,
      requires_zone_id: requiresZone,
      fields: validates ? validationFields(requiresZone) : [],
      endpoint: validates ? VALIDATE_ENDPOINT : null,
    },
    description: row.description,
    updated_at: new Date(at.changedAt).toISOString(),
  }
}

type Category = {
  id: number
  name: string
  slug: string
  icon: string | null
  products: { id: number; name: string; image: string | null; variants: Variant[] }[]
}

function nest(entries: CatalogEntry[]): Category[] {
  const categories: Category[] = []
  for (const entry of entries) {
    let category = categories.at(-1)
    if (category?.id !== entry.category.id) categories.push((category = { ...entry.category, products: [] }))
    let product = category.products.at(-1)
    if (product?.id !== entry.product.id) category.products.push((product = { ...entry.product, variants: [] }))
    // The public docs' item fields name the category on each variant too.
    product.variants.push({ ...entry.variant, category: entry.category.name })
  }
  return categories
}

/**
 * `updated_since` as a time the database can compare: a leap second (23:59:60) passes the
 * date-time format but names no instant JavaScript or PostgreSQL can hold, so it is refused.
 */
function sinceOf(text: string | undefined): Date | undefined {
  if (text === undefined) return undefined
  const since = new Date(text)
  if (Number.isNaN(since.getTime())) throw invalidField('updated_since', 'must be an ISO 8601 time (no leap second)')
  // Nothing changed before 1970; earlier years (0000) are beyond what PostgreSQL reads back.
  return since.getTime() < 0 ? new Date(0) : since
}

// Category by id, case-insensitive name or slug (the public docs' filter); search in item name, product name and sku, literally.
function matches(entry: CatalogEntry, q: CatalogQuery, since: Date | undefined): boolean {
  if (since ? entry.changedAt < since.getTime() : !entry.active) return false
  if (q.category !== undefined) {
    const wanted = q.category.toLowerCase()
    const byName = entry.category.name.toLowerCase() === wanted || entry.category.slug === wanted
    if (!byName && !(/^\d{1,15}$/.test(q.category) && entry.category.id === Number(q.category))) return false
  }
  if (q.search) {
    const needle = q.search.toLowerCase()
    if (!entry.names.some((name) => name.includes(needle))) return false
  }
  return true
}

/** Who reads the catalog: the account's price level, and since when it has been there (docs/design.md §5d). */
export type CatalogReader = { price_level_id: number; price_level_since: Date | null }

/**
 * The `updated_since` a reader's listing answers from: none (the full catalog, `is_delta: false`) when
 * its account moved to another level since then, as every price it sees may have moved.
 */
export function deltaSince(q: CatalogQuery, reader: CatalogReader): Date | undefined {
  const since = sinceOf(q.updated_since)
  const moved = reader.price_level_since
  return since && moved && moved.getTime() >= since.getTime() ? undefined : since
}

/**
 * GET /v1/item from a catalog snapshot at a level: categories → products → variants, paged over
 * variants; a delta (`since`) includes switched-off items. `server_time` is the snapshot's cursor, so
 * the next delta from it misses nothing this answer did not show.
 */
export function listCatalog(snapshot: CatalogSnapshot, q: CatalogQuery, levelId: number, since: Date | undefined) {
  const selected = entriesAt(snapshot, levelId).filter((entry) => matches(entry, q, since))
  const total = selected.length
  const page = q.page ?? 1
  const perPage = q.per_page === 'all' ? Math.max(total, 1) : (q.per_page ?? 100)
  const { last_page } = paginate({ page, per_page: perPage }, total)
  const meta = { total_items: total, is_delta: since !== undefined, page, per_page: perPage, last_page }
  return { ...ok(nest(selected.slice((page - 1) * perPage, page * perPage)), meta), server_time: snapshot.cursor.toISOString() }
}

/** GET /v1/item/{id}: one active variant at the reader's level, from the query the listing reads. */
export async function getCatalogItem(db: Database, itemId: number, levelId: number) {
  const row = await findVariant(db, itemId, { activeOnly: true })
  if (!row) throw new AppError('ITEM_NOT_FOUND')
  const variant = toVariant(row, priceAtLevel(row, levelId))
  return { ...variant, product_id: row.product_id, product_name: row.product_name, category: row.category_name }
}

/** An operator's item: the variant, its product and category, whether it is switched on, its upstream code. */
export function operatorItem(row: VariantRow) {
  return {
    ...toVariant(row),
    product_id: row.product_id,
    product_name: row.product_name,
    category: row.category_name,
    active: row.active,
    provider_code: row.provider_code,
    cost: row.cost,
    price_locked: row.price_locked,
    allow_loss: row.allow_loss,
    min_margin: row.min_margin,
  }
}

/** Every item, on or off, for an operator: by category, product and id; `search` in names and SKU. */
export async function listOperatorItems(db: Database, q: { page: number; perPage: number; search?: string; category?: string }) {
  const filter: VariantFilter = { search: q.search, category: q.category, activeOnly: false }
  const [rows, total] = await Promise.all([listVariants(db, filter, q), countVariants(db, filter)])
  return { rows: rows.map(operatorItem), total }
}
