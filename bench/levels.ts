/**
 * The price levels' part of npm run bench (docs/design.md §5d), beside the reads (BENCH_ONLY=levels
 * alone, on the reads' catalog):
 * - fourLevels(): the default level and three more, each with rules, and 64 accounts spread over the
 *   four: the reads' phase "GET /api/v1/item?per_page=all, 4 levels" lists the catalog as them, so
 *   every snapshot derives and serializes four answers where one level serves one.
 * - levelRecompute(): 5,000 items more (BENCH_LEVEL_ITEMS), then each level's rules replaced
 *   (replaceLevelRules: refresh_level_prices() over every item at that level, in one transaction) by a
 *   set that moves every price; the figure is the four replacements' wall time, 5,000 × 4 prices.
 * Nothing is asserted on time.
 */
import { sql } from 'kysely'
import pg from 'pg'
import { inTransaction, openPostgres, type Database } from '../src/db/database.js'
import { createItemsWithin } from '../src/modules/catalog/index.js'
import { backendsMs, machineBusy, watchDatabaseBackends } from './harness.js'
import { createPriceLevel, replaceLevelRules, setAccountLevel, type LevelRuleBody } from '../src/modules/price-levels/index.js'

const LEVELS = ['reseller', 'member', 'vip', 'h2h'] as const
const ACCOUNTS = 64
const RECOMPUTE_ITEMS = Number(process.env.BENCH_LEVEL_ITEMS ?? 5000)

type Admin = (method: string, url: string, body?: object) => Promise<any>

const ms = (since: number) => Math.round(performance.now() - since)

async function withDatabase<T>(databaseUrl: string, work: (db: Database) => Promise<T>): Promise<T> {
  const handle = await openPostgres(databaseUrl, 2)
  try {
    return await work(handle.db)
  } finally {
    await handle.close()
  }
}

/** Rules per level, each with an `all` rule: a new `step` moves every price of the level. */
function rulesFor(code: (typeof LEVELS)[number], categories: number[], step = 0): LevelRuleBody[] {
  const [first, second] = categories
  switch (code) {
    case 'reseller':
      return [
        { scope: 'all', percent: step, round_to: 1 },
        { scope: 'category', category_id: first, percent: 1 + step, round_to: 50 },
      ]
    case 'member':
      return [
        { scope: 'all', percent: 5 + step, round_to: 1 },
        { scope: 'brand', brand: 'Read Product 1', percent: 7, round_to: 100 },
      ]
    case 'vip':
      return [
        { scope: 'all', percent: 2 + step, round_to: 1 },
        { scope: 'category', category_id: second, percent: -1, round_to: 50 },
      ]
    case 'h2h':
      return [{ scope: 'all', percent: -2 - step, flat: 25, round_to: 1 }]
  }
}

const categoryIds = async (db: Database, prefix: string) =>
  (await db.selectFrom('categories').select('id').where('name', 'like', `${prefix}%`).orderBy('id').execute()).map((c) => c.id)

/** Four levels with rules and 64 new accounts spread over them; answers their keys (level by key order). */
export async function fourLevels(deps: { databaseUrl: string; admin: Admin }): Promise<string[]> {
  return withDatabase(deps.databaseUrl, async (db) => {
    for (const code of LEVELS.slice(1)) await createPriceLevel(db, { code, name: code.toUpperCase() })
    const categories = await categoryIds(db, 'Read Category')
    for (const code of LEVELS) await replaceLevelRules(db, code, rulesFor(code, categories))
    const keys: string[] = []
    for (let i = 0; i < ACCOUNTS; i++) {
      const account = await deps.admin('POST', '/resellers', { name: `levels bench ${i}` })
      await setAccountLevel(db, account.id, LEVELS[i % LEVELS.length])
      keys.push(account.api_key)
    }
    return keys
  })
}

export type LevelRecompute = {
  items: number
  levels: number
  insert_ms: number
  /** Each level's rule replacement: its wall time and the prices it moved. */
  per_level: { level: string; ms: number; prices_moved: number }[]
  total_ms: number
  /** CPU the database's backends spent on the four (a busy machine stretches wall time, less so CPU). */
  postgres_cpu_ms: number
  machine_busy_percent: number
}

/** 5,000 items more, then every level's rules replaced by a set that moves each of its prices. */
export async function levelRecompute(databaseUrl: string): Promise<LevelRecompute> {
  const probe = new pg.Client({ connectionString: databaseUrl })
  await probe.connect()
  try {
    return await recompute(databaseUrl, probe)
  } finally {
    await probe.end()
  }
}

async function recompute(databaseUrl: string, probe: pg.Client): Promise<LevelRecompute> {
  return withDatabase(databaseUrl, async (db) => {
    console.log(`levels: ${RECOMPUTE_ITEMS} items more (their prices at ${LEVELS.length} levels computed on insert) …`)
    let started = performance.now()
    await inTransaction(db, (trx) =>
      createItemsWithin(
        trx,
        Array.from({ length: RECOMPUTE_ITEMS }, (_, i) => ({
          product_name: `Level Product ${i % 50}`,
          category: `Level Category ${i % 5}`,
          name: `Level Item ${i}`,
          sku: `LEVEL-${i}`,
          price: 1000 + (i % 997) * 25,
          order_process: 'manual' as const,
          unlimited_stock: true,
        })),
      ),
    )
    const insertMs = ms(started)
    const items = Number((await sql<{ n: string }>`SELECT count(*) AS n FROM items`.execute(db)).rows[0].n)
    const categories = await categoryIds(db, 'Read Category')
    console.log(`levels: each level's rules replaced, ${items} items × ${LEVELS.length} levels …`)
    const perLevel: LevelRecompute['per_level'] = []
    const postgres = watchDatabaseBackends(probe)
    const busy = machineBusy()
    for (const level of LEVELS) {
      started = performance.now()
      const { prices_moved } = await replaceLevelRules(db, level, rulesFor(level, categories, 1))
      perLevel.push({ level, ms: ms(started), prices_moved })
    }
    const report = {
      items,
      levels: LEVELS.length,
      insert_ms: insertMs,
      per_level: perLevel,
      total_ms: perLevel.reduce((sum, l) => sum + l.ms, 0),
      ...backendsMs(await postgres.stop()),
      machine_busy_percent: busy.busyPercent(),
    }
    console.table(perLevel)
    return report
  })
}
