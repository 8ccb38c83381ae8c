import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { addBulkProducts, steerBulkProducts } from '../src/providers/bulk-price-list.simulator.js'
import { ADMIN_TOKEN } from './app.js'
import { cloneTestDatabase, onPostgres } from './database.js'
import { eventually } from './eventually.js'
import { assertInvariants } from './invariants.js'
import { adminCall, startServerProcess, type ServerProcess } from './server-process.js'
import { startUpstreams } from './upstreams.js'

const BULK = 5_000
// The simulator's own list (7 prepaid, 2 pasca) besides the bulk products.
const LISTED = BULK + 9
const RULE = { percent: 3, flat: 0, round_to: 50, min_margin: 100 }
const DRILL_LOCK = 4_343_001

// docs/design.md §11b: a sync applies a list whole or not at all. The apply is held at its end (the change
// log's insert waits on a lock this test holds) with every product row already written in its open
// transaction; the process is SIGKILLed there. Nothing of that list may be left, and the next sync applies it whole.
describe.skipIf(!onPostgres)('SIGKILL while a 5,000-product price list is applied (PostgreSQL, real server processes)', () => {
  const closing: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const close of closing.reverse()) await close()
  })

  it('leaves the previous list, no change of the killed sync and the items as they were; the next sync applies the whole list', async () => {
    const database = await cloneTestDatabase()
    closing.push(() => database.close())
    const up = await startUpstreams()
    closing.push(() => up.close())
    const list = up.digiflazz.priceLists.prepaid
    addBulkProducts(list, BULK)
    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    closing.push(() => client.end())
    const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await client.query<R>(text, values)).rows

    // ROLE=api: no sync worker beside the route; statements may wait as long as the drill holds its lock.
    const env = { DATABASE_URL: database.url!, ROLE: 'api', PROVIDER_TIMEOUT_MS: '20000', DB_STATEMENT_TIMEOUT_MS: '3600000' }
    const processes: ServerProcess[] = []
    closing.push(async () => processes.forEach((p) => p.child.exitCode === null && p.child.signalCode === null && p.child.kill('SIGKILL')))
    const first = await startServerProcess(env)
    processes.push(first)
    await adminCall(first.base, 'POST', '/providers', {
      code: 'bulk',
      kind: 'digiflazz',
      base_url: `${up.base}/digiflazz/v1`,
      username: 'demo',
      api_key: 'demo-key',
    })
    expect(await adminCall(first.base, 'POST', '/providers/bulk/sync?force=true')).toMatchObject({
      status: 'ok',
      listed: LISTED,
      changes: { new: LISTED, price: 0 },
    })
    // Items bought from a share of the list, priced by a provider-wide rule: the sync reprices them.
    await adminCall(first.base, 'PUT', '/pricing-rules', { scope: 'provider', provider: 'bulk', ...RULE })
    const imported = await adminCall(first.base, 'POST', '/providers/bulk/import', { categories: ['Games'] })
    expect(imported.created.length).toBeGreaterThan(600)
    const productsNow = () =>
      query(`SELECT code, price, active, gone_at, last_seen_at, raw FROM supplier_products WHERE provider = 'bulk' ORDER BY code`)
    const itemsNow = () => query(`SELECT id, price, cost, updated_at FROM items ORDER BY id`)
    const before = { products: await productsNow(), items: await itemsNow(), changes: await query(`SELECT id FROM supplier_changes`) }

    // Every bulk product gets a new price. The apply's last write (the items' new prices) then waits in
    // a drill-only trigger for a lock this test holds: everything the sync writes is written, uncommitted.
    const { repriced } = steerBulkProducts(list, BULK, { repricedPercent: 100, offPercent: 0, gonePercent: 0 })
    expect(repriced).toHaveLength(BULK)
    await query(`CREATE FUNCTION drill_hold() RETURNS trigger LANGUAGE plpgsql AS $$
                 BEGIN PERFORM pg_advisory_xact_lock_shared(${DRILL_LOCK}); RETURN NULL; END $$`)
    await query(`CREATE TRIGGER drill_hold AFTER UPDATE ON items FOR EACH STATEMENT EXECUTE FUNCTION drill_hold()`)
    const holder = new pg.Client({ connectionString: database.url })
    await holder.connect()
    closing.push(() => holder.end())
    await holder.query(`SELECT pg_advisory_lock(${DRILL_LOCK})`)
    const killedRequest = fetch(`${first.base}/api/admin/v1/providers/bulk/sync?force=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    }).catch((error: Error) => error)

    const [waiting] = await eventually(
      "the apply waits at its items' new prices, its transaction open",
      () =>
        query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'
              AND query ILIKE '%UPDATE items%'`,
        ),
      (rows) => rows.length === 1,
    )
    // Written by that open transaction: every listed product, every imported item (each row locked by
    // the statement that changed it), the claim closed as ok, the change log.
    const unlocked = async (table: string, where: string) => {
      await client.query('BEGIN')
      const [{ n }] = await query<{ n: string }>(
        `SELECT count(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${where} FOR UPDATE SKIP LOCKED) t`,
      )
      await client.query('ROLLBACK')
      return Number(n)
    }
    expect(await unlocked('supplier_products', `provider = 'bulk'`)).toBe(0)
    // (The simulator's own games kept their prices: not repriced, not written.)
    expect(await unlocked('items', `id IN (SELECT item_id FROM item_sources WHERE provider = 'bulk' AND code LIKE 'bulk%')`)).toBe(0)
    expect(await unlocked('items', `id IN (SELECT item_id FROM item_sources WHERE provider = 'bulk')`)).toBe(3)
    // The claim row as the open transaction sees it is closed; outside it, still running.
    const [killed] = await query<{ id: number }>(`SELECT id FROM supplier_syncs WHERE provider = 'bulk' AND status = 'running'`)
    expect(await unlocked('supplier_syncs', `id = ${killed.id}`)).toBe(0)

    first.child.kill('SIGKILL')
    await first.exited
    expect(await killedRequest).toBeInstanceOf(Error)
    // Let the orphaned statement run on: its transaction still ends without a COMMIT, when its backend finds the client gone.
    await holder.query(`SELECT pg_advisory_unlock(${DRILL_LOCK})`)
    await eventually(
      "the killed process's backend ended",
      () => query(`SELECT pid FROM pg_stat_activity WHERE pid = $1`, [waiting.pid]),
      (rows) => rows.length === 0,
    )

    expect(await productsNow()).toEqual(before.products)
    expect(await query(`SELECT id FROM supplier_changes`)).toEqual(before.changes)
    expect(await query(`SELECT id FROM supplier_changes WHERE sync_id = $1`, [killed.id])).toEqual([])
    expect(await itemsNow()).toEqual(before.items)
    await query(`DROP TRIGGER drill_hold ON items`)
    // The claim stays as the killed process left it, and holds the provider until it is stale.
    expect(await query(`SELECT status, finished_at FROM supplier_syncs WHERE id = $1`, [killed.id])).toEqual([
      { status: 'running', finished_at: null },
    ])

    const second = await startServerProcess(env)
    processes.push(second)
    const busy = await fetch(`${second.base}/api/admin/v1/providers/bulk/sync?force=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(busy.status).toBe(409)
    expect(await busy.json()).toMatchObject({ message: 'INVALID_STATE' })
    // Time passes: the claim becomes as old as one a stopped process leaves behind.
    await query(`UPDATE supplier_syncs SET started_at = now() - interval '1 hour' WHERE id = $1`, [killed.id])
    expect(await adminCall(second.base, 'POST', '/providers/bulk/sync?force=true')).toMatchObject({
      status: 'ok',
      listed: LISTED,
      changes: { new: 0, price: BULK, status: 0, gone: 0, back: 0 },
    })
    expect(await query(`SELECT status, error FROM supplier_syncs WHERE id = $1`, [killed.id])).toEqual([
      { status: 'failed', error: 'abandoned: the process reading the list stopped before applying it' },
    ])
    const after = new Map((await productsNow()).map((p) => [p.code, Number(p.price)]))
    const listedNow = new Map(
      (list.read() as { list: { buyer_sku_code: string; price: number }[] }).list.map((p) => [p.buyer_sku_code, p.price]),
    )
    for (const code of repriced) expect(after.get(code)).toBe(listedNow.get(code))
    // The imported items now cost what the new list says, priced by the rule: round_up(cost × 1.03, 50), at least cost + 100.
    const priced = await query<{ price: string; cost: string; listed: string }>(
      `SELECT i.price, i.cost, sp.price AS listed FROM items i JOIN item_sources s ON s.item_id = i.id
         JOIN supplier_products sp ON sp.provider = s.provider AND sp.code = s.code WHERE s.provider = 'bulk'`,
    )
    expect(priced).toHaveLength(imported.created.length)
    for (const item of priced) {
      const cost = Number(item.cost)
      expect(cost).toBe(Number(item.listed))
      expect(Number(item.price)).toBe(Math.max(Math.ceil((cost * 103) / 5000) * 50, Math.ceil((cost + 100) / 50) * 50))
    }
    await assertInvariants(database.db)
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  }, 300_000)
})
