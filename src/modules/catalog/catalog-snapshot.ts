import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.js'
import type { Database } from '../../db/database.js'
import { variantsQuery, type VariantRow } from './catalog.queries.js'
import { slugOf } from './category-slug.js'
import type { Variant } from './catalog.schemas.js'
import { priceAtLevel, type PriceAt } from './catalog-levels.js'
import { createSyncClock, snapshotXmin, type SyncClock } from './sync-clock.js'

/** One variant of the snapshot at one level, with what the listing filters and nests by. */
export type CatalogEntry = {
  variant: Variant
  active: boolean
  /** ms since the epoch: compares with updated_since as the database would (both truncated to ms). */
  changedAt: number
  category: { id: number; name: string; slug: string; icon: string | null }
  product: { id: number; name: string; image: string | null }
  /** Lower-cased item name, product name and sku, for search. */
  names: string[]
}

/** An item of the snapshot as read, with what every level shares. */
type SnapshotItem = { row: VariantRow } & Omit<CatalogEntry, 'variant' | 'changedAt'>

export type VariantAt = (row: VariantRow, at?: PriceAt) => Variant

export type CatalogSnapshot = {
  items: SnapshotItem[]
  /** Each level's entries (docs/design.md §5d), derived from `items` when a level is first asked for. */
  levels: Map<number, CatalogEntry[]>
  toVariant: VariantAt
  /** The delta cursor: every change this snapshot misses is stamped at or after it. */
  cursor: Date
  /** Serialized answers of this snapshot, by level and query (the same for every reseller of a level). */
  bodies: Map<string, Buffer>
  generation: number
  takenAt: number
}

/**
 * The catalog as every reseller sees it, kept per process (docs/design.md §5b): renewed when an edit is
 * announced (here at once, elsewhere by NOTIFY catalog_changed) and otherwise at most a second
 * old, so stock lags committed sales, refunds and locks by at most a second without a sale
 * touching any shared row. Past half a second a read starts the renewal and is served the current
 * snapshot; past a second it waits for a new one.
 */
export type CatalogCache = {
  /**
   * `notBefore`: a snapshot whose cursor is past this time (an account's level move: the full answer it
   * gets then hands out a cursor its next delta is a delta from), waited for a while, else the newest one.
   */
  current(notBefore?: Date): Promise<CatalogSnapshot>
  /** A catalog edit committed: the next read waits for a snapshot taken after it. */
  invalidate(): void
}

const REFRESH_AFTER_MS = 500
const MAX_AGE_MS = 1000
const MAX_BODIES = 64
// A cursor older than the whole history of observations: every change since the epoch.
const EPOCH = new Date(0)
const FIRST_CURSOR_WAIT_MS = 2000
// How long a read waits for a cursor past an account's level move (a transaction in flight holds it back).
const CURSOR_WAIT_MS = 2000

function toItem(row: VariantRow): SnapshotItem {
  return {
    row,
    active: row.active,
    // A category an older process inserted mid-deploy has no stored slug yet (migration 0230).
    category: {
      id: row.category_id,
      name: row.category_name,
      slug: row.category_slug ?? slugOf(row.category_name),
      icon: row.category_icon,
    },
    product: { id: row.product_id, name: row.product_name, image: row.product_image },
    names: [row.name, row.product_name, row.sku].map((n) => n.toLowerCase()),
  }
}

/** The snapshot's variants at a level: its prices, statuses and change times, derived once per snapshot. */
export function entriesAt(snapshot: CatalogSnapshot, levelId: number): CatalogEntry[] {
  let entries = snapshot.levels.get(levelId)
  if (entries === undefined) {
    entries = snapshot.items.map(({ row, ...shared }) => {
      const at = priceAtLevel(row, levelId)
      return { ...shared, variant: snapshot.toVariant(row, at), changedAt: at.changedAt }
    })
    snapshot.levels.set(levelId, entries)
  }
  return entries
}

/**
 * `previous`: the cursor of a snapshot finished before this one began. When a transaction older than
 * every observation is still open (anywhere in the cluster: transaction ids are global), it still
 * holds: whatever this snapshot misses either was in flight then too, or got its id after it.
 */
async function takeSnapshot(
  db: Database,
  readDb: Database,
  clock: SyncClock,
  toVariant: VariantAt,
  generation: number,
  previous: Date | undefined,
): Promise<CatalogSnapshot> {
  const takenAt = Date.now()
  for (;;) {
    // Observed on the primary (a transaction id is handed out there only), read where reads go: a
    // replica's snapshot xmin bounds what it misses as the primary's does (transaction ids are global).
    const observed = await clock.observe(db)
    const rows = await variantsQuery(readDb, { activeOnly: false }).select(snapshotXmin.as('xmin')).execute()
    // An empty catalog: the observation's own snapshot is earlier, so its xmin is a safe stand-in; a
    // replica's may be behind it, and the epoch misses nothing there (nothing to send either).
    if (rows.length === 0 && readDb !== db) return { ...emptySnapshot(toVariant, generation, takenAt), cursor: EPOCH }
    const xmin = rows.length > 0 ? BigInt(rows[0].xmin) : observed.xmin
    const cursor = clock.cursorFor(xmin) ?? previous
    // A new process's first snapshot: once the transactions in flight end, the observation just made serves.
    // Past the wait, the epoch is a cursor that misses nothing.
    if (cursor === undefined && Date.now() - takenAt < FIRST_CURSOR_WAIT_MS) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      continue
    }
    return { ...emptySnapshot(toVariant, generation, takenAt), items: rows.map(toItem), cursor: cursor ?? EPOCH }
  }
}

const emptySnapshot = (toVariant: VariantAt, generation: number, takenAt: number): CatalogSnapshot => ({
  items: [],
  levels: new Map(),
  toVariant,
  cursor: EPOCH,
  bodies: new Map<string, Buffer>(),
  generation,
  takenAt,
})

/** `readDb`: where the listing is read (a replica within the lag bound, or `db`, the primary). */
export function createCatalogCache(db: Database, toVariant: VariantAt, readDb: Database = db): CatalogCache {
  const clock = createSyncClock()
  let snapshot: CatalogSnapshot | undefined
  let generation = 0
  let building: { generation: number; promise: Promise<CatalogSnapshot> } | undefined
  let lastCursor: Date | undefined

  const renew = (): Promise<CatalogSnapshot> => {
    if (building?.generation === generation) return building.promise
    const promise = takeSnapshot(db, readDb, clock, toVariant, generation, lastCursor)
      .then((taken) => {
        if (!lastCursor || taken.cursor > lastCursor) lastCursor = taken.cursor
        if (!snapshot || taken.generation > snapshot.generation || taken.takenAt > snapshot.takenAt) snapshot = taken
        return taken
      })
      .finally(() => {
        if (building?.promise === promise) building = undefined
      })
    building = { generation, promise }
    return promise
  }

  const latest = async (): Promise<CatalogSnapshot> => {
    const s = snapshot
    if (s && s.generation === generation) {
      const age = Date.now() - s.takenAt
      if (age < REFRESH_AFTER_MS) return s
      // A failed background renewal leaves the next read to try (and report) it.
      if (age < MAX_AGE_MS) {
        renew().catch(() => {})
        return s
      }
    }
    return renew()
  }

  return {
    async current(notBefore) {
      let s = await latest()
      const deadline = Date.now() + CURSOR_WAIT_MS
      // Rare (an account's first delta after its level moved): renewals until one's cursor passes the move.
      const before = (snapshot: CatalogSnapshot) => notBefore !== undefined && snapshot.cursor.getTime() <= notBefore.getTime()
      while (before(s) && Date.now() < deadline) {
        s = await renew()
        if (before(s)) await new Promise((resolve) => setTimeout(resolve, 50))
      }
      return s
    },
    invalidate() {
      generation++
    },
  }
}

/**
 * A serialized answer of this snapshot, made once per query and kept as bytes: a string of the full
 * listing would be measured and encoded again on every send.
 */
export function cachedBody(snapshot: CatalogSnapshot, key: string, make: () => string): Buffer {
  let body = snapshot.bodies.get(key)
  if (body === undefined) {
    if (snapshot.bodies.size >= MAX_BODIES) snapshot.bodies.clear()
    snapshot.bodies.set(key, (body = Buffer.from(make())))
  }
  return body
}

/**
 * An operator's write (admin API, console) renews this process's snapshot before its answer leaves, so
 * the next listing here is taken after the edit; other processes hear the NOTIFY below. One hook on
 * the operator scopes instead of a call after every edit: a write that changes nothing listed costs
 * one snapshot early.
 */
export function renewCatalogAfterWrites(app: FastifyInstance, catalog: CatalogCache): void {
  app.addHook('onSend', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') catalog.invalidate()
  })
}

// Rung by the catalog's triggers (catalog-clock.sql) in the transaction of every catalog change, sent on commit.
const CHANNEL = 'catalog_changed'

/** Keeps this process's catalog snapshot in step with edits made by any process. */
export function watchCatalogChanges(ctx: AppContext): Promise<() => Promise<void>> {
  const renew = () => ctx.catalog.invalidate()
  return ctx.listen(CHANNEL, renew, renew)
}
