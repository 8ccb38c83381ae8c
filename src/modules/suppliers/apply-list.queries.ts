import { sql } from 'kysely'
import type { Trx } from '../../db/database.js'
import type { ListedProduct } from '../../providers/price-list.js'
import { chunks } from './chunks.js'
import { holdPrices, type Change, type Known } from './price-hygiene.js'
import type { SupplierSync } from './sync-claims.queries.js'

const onOff = (active: boolean) => (active ? 'on' : 'off')

/** What changed from the known rows to the list just read: new, price, status, back, gone, each once. */
export function changesOf(known: Known[], listed: ListedProduct[]): Change[] {
  const before = new Map(known.map((k) => [k.code, k]))
  const changes: Change[] = []
  for (const p of listed) {
    const k = before.get(p.code)
    if (!k) {
      changes.push({ code: p.code, kind: 'new', old_value: null, new_value: p.price })
      continue
    }
    if (k.gone_at) changes.push({ code: p.code, kind: 'back', old_value: null, new_value: p.price })
    if (Number(k.price) !== Number(p.price)) changes.push({ code: p.code, kind: 'price', old_value: String(k.price), new_value: p.price })
    if (k.active !== p.active) changes.push({ code: p.code, kind: 'status', old_value: onOff(k.active), new_value: onOff(p.active) })
  }
  const listedCodes = new Set(listed.map((p) => p.code))
  for (const k of known)
    if (!k.gone_at && !listedCodes.has(k.code)) changes.push({ code: k.code, kind: 'gone', old_value: String(k.price), new_value: null })
  return changes
}

const rowOf = (provider: string, p: ListedProduct) => ({
  provider,
  code: p.code,
  name: p.name,
  category: p.category,
  brand: p.brand,
  type: p.type,
  price: p.price,
  min_quantity: p.minQuantity,
  max_quantity: p.maxQuantity,
  active: p.active,
  unlimited_stock: p.unlimitedStock,
  stock: p.stock,
  cut_off_start: p.cutOffStart,
  cut_off_end: p.cutOffEnd,
  postpaid: p.postpaid,
  raw: JSON.stringify(p.raw),
  first_seen_at: sql<Date>`now()`,
  last_seen_at: sql<Date>`now()`,
  gone_at: null,
})

/**
 * Applies a whole list read for the claim `syncId`, in the caller's transaction: the products as
 * listed, the gone ones marked, each change logged, the sync closed with its counts; answers the sync
 * and the codes that changed (`switchedCodes`: those switched off or on, gone or back). Undefined when the claim was taken over meanwhile (this process was too
 * slow): nothing is written.
 */
export async function applyList(
  trx: Trx,
  syncId: number,
  provider: string,
  read: { products: ListedProduct[]; skipped: number },
  jumpPercent: number,
): Promise<{ sync: SupplierSync; changedCodes: string[]; switchedCodes: string[] } | undefined> {
  const claim = await trx
    .selectFrom('supplier_syncs')
    .select('id')
    .where('id', '=', syncId)
    .where('status', '=', 'running')
    .forUpdate()
    .executeTakeFirst()
  if (!claim) return undefined
  // A code listed twice (prepaid and pasca alike) is kept as first listed.
  const unique = [...new Map(read.products.map((p) => [p.code, p] as const).reverse()).values()].reverse()
  // The open holds are locked before the products are read: an approval either commits first (its
  // price is then read as applied) or waits for this list, never overwritten by it.
  const openHolds = await trx
    .selectFrom('supplier_changes')
    .select(['id', 'code', 'new_value'])
    .where('provider', '=', provider)
    .where('hold_open', '=', true)
    .forUpdate()
    .execute()
  const known = await trx
    .selectFrom('supplier_products')
    .select(['code', 'price', 'active', 'gone_at'])
    .where('provider', '=', provider)
    .execute()
  const { kind } = await trx.selectFrom('providers').select('kind').where('code', '=', provider).executeTakeFirstOrThrow()
  const { applied: listed, held, closing } = holdPrices(kind, known, unique, openHolds, jumpPercent)
  for (const ids of chunks(closing)) await trx.updateTable('supplier_changes').set({ hold_open: false }).where('id', 'in', ids).execute()
  const changes = [...changesOf(known, listed), ...held]
  for (const rows of chunks(listed.map((p) => rowOf(provider, p))))
    await trx
      .insertInto('supplier_products')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['provider', 'code']).doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          category: eb.ref('excluded.category'),
          brand: eb.ref('excluded.brand'),
          type: eb.ref('excluded.type'),
          price: eb.ref('excluded.price'),
          min_quantity: eb.ref('excluded.min_quantity'),
          max_quantity: eb.ref('excluded.max_quantity'),
          active: eb.ref('excluded.active'),
          unlimited_stock: eb.ref('excluded.unlimited_stock'),
          stock: eb.ref('excluded.stock'),
          cut_off_start: eb.ref('excluded.cut_off_start'),
          cut_off_end: eb.ref('excluded.cut_off_end'),
          postpaid: eb.ref('excluded.postpaid'),
          raw: eb.ref('excluded.raw'),
          last_seen_at: eb.ref('excluded.last_seen_at'),
          gone_at: null,
        })),
      )
      .execute()
  const gone = changes.filter((c) => c.kind === 'gone').map((c) => c.code)
  for (const codes of chunks(gone))
    await trx
      .updateTable('supplier_products')
      .set({ gone_at: sql`now()` })
      .where('provider', '=', provider)
      .where('code', 'in', codes)
      .execute()
  for (const rows of chunks(changes))
    await trx
      .insertInto('supplier_changes')
      .values(rows.map((c) => ({ ...c, provider, sync_id: syncId, at: sql<Date>`now()` })))
      .execute()
  const count = (kind: Change['kind']) => changes.filter((c) => c.kind === kind).length
  const sync = await trx
    .updateTable('supplier_syncs')
    .set({
      status: 'ok',
      finished_at: sql`now()`,
      total: unique.length,
      skipped: read.skipped,
      new_count: count('new'),
      price_count: count('price'),
      status_count: count('status'),
      gone_count: count('gone'),
      back_count: count('back'),
      held_count: count('held'),
    })
    .where('id', '=', syncId)
    .returningAll()
    .executeTakeFirstOrThrow()
  // A held price moves nothing: its items keep the cost of the last applied price.
  const moved = changes.filter((c) => c.kind !== 'held')
  const switched = changes.filter((c) => c.kind === 'status' || c.kind === 'gone' || c.kind === 'back')
  return { sync, changedCodes: [...new Set(moved.map((c) => c.code))], switchedCodes: [...new Set(switched.map((c) => c.code))] }
}
