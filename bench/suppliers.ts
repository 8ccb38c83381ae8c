/**
 * The supplier sync part of npm run bench (BENCH_ONLY=suppliers): a Digiflazz price list of 5,000
 * products (BENCH_SUPPLIER_PRODUCTS) served over HTTP on 127.0.0.1 by the service's own simulator,
 * synced and imported whole under a provider-wide pricing rule; then the next list, with about 30 %
 * of the prices changed, 5 % switched off and 2 % gone, is synced once. Its figure is that sync's
 * wall time (POST /providers/{code}/sync: the list read over HTTP, applied in one transaction with
 * its change log, the linked items repriced) with the CPU PostgreSQL and the server spent on it;
 * beside it, the items repriced and the items left with no source that can serve. Nothing here is
 * asserted on time.
 */
import Fastify from 'fastify'
import type net from 'node:net'
import pg from 'pg'
import { addBulkProducts, steerBulkProducts } from '../src/providers/bulk-price-list.simulator.js'
import { upstreamSimulators } from '../src/providers/simulators.js'
import { backendsMs, cpuSeconds, machineBusy, watchDatabaseBackends } from './harness.js'

export type SupplierBenchDeps = {
  databaseUrl: string
  serverPid: number
  /** The operator API. */
  admin: (method: string, url: string, body?: object) => Promise<any>
}

const PRODUCTS = Number(process.env.BENCH_SUPPLIER_PRODUCTS ?? 5000)
const PROVIDER = 'bench-supplier'
const STEERING = { repricedPercent: 30, offPercent: 5, gonePercent: 2 }
const RULE = { percent: 3, flat: 0, round_to: 50, min_margin: 100 }

const ms = (since: number) => Math.round(performance.now() - since)

type ItemState = { id: number; price: number; cost: string | null; serving: boolean }

export async function supplierBench(deps: SupplierBenchDeps) {
  const db = new pg.Client({ connectionString: deps.databaseUrl })
  await db.connect()
  const sims = upstreamSimulators()
  const server = Fastify()
  await server.register(sims.plugin)
  await server.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${(server.server.address() as net.AddressInfo).port}`
  const list = sims.digiflazz.priceLists.prepaid
  addBulkProducts(list, PRODUCTS)

  try {
    await deps.admin('POST', '/providers', {
      code: PROVIDER,
      kind: 'digiflazz',
      base_url: `${base}/digiflazz/v1`,
      username: 'demo',
      api_key: 'demo-key',
    })
    console.log(`suppliers: first sync of ${PRODUCTS} products …`)
    let started = performance.now()
    const first = await deps.admin('POST', `/providers/${PROVIDER}/sync?force=true`)
    const firstSyncMs = ms(started)
    await deps.admin('PUT', '/pricing-rules', { scope: 'provider', provider: PROVIDER, ...RULE })
    console.log('suppliers: importing every product as an item …')
    started = performance.now()
    const listed = (l: { read(): object }) => (l.read() as { list: { category: string }[] }).list
    const categories = [...new Set([...listed(list), ...listed(sims.digiflazz.priceLists.pasca)].map((p) => p.category))]
    const imported = await deps.admin('POST', `/providers/${PROVIDER}/import`, { categories })
    const importMs = ms(started)

    const items = async (): Promise<Map<number, ItemState>> => {
      const { rows } = await db.query<ItemState>(
        `SELECT i.id, i.price, i.cost::text AS cost, EXISTS (SELECT 1 FROM serving_sources(i.id, now())) AS serving
           FROM items i WHERE i.id IN (SELECT item_id FROM item_sources WHERE provider = $1)`,
        [PROVIDER],
      )
      return new Map(rows.map((r) => [Number(r.id), { ...r, id: Number(r.id), price: Number(r.price) }]))
    }
    const before = await items()
    const steered = steerBulkProducts(list, PRODUCTS, STEERING)

    console.log(
      `suppliers: the next list (${steered.repriced.length} repriced, ${steered.off.length} off, ${steered.gone.length} gone), synced …`,
    )
    const serverCpu = cpuSeconds(deps.serverPid)
    const postgres = watchDatabaseBackends(db)
    const busy = machineBusy()
    started = performance.now()
    const second = await deps.admin('POST', `/providers/${PROVIDER}/sync?force=true`)
    const secondSyncMs = ms(started)
    const sync = {
      wall_ms: secondSyncMs,
      ...backendsMs(await postgres.stop()),
      server_cpu_ms: Math.round((cpuSeconds(deps.serverPid) - serverCpu) * 1000),
      machine_busy_percent: busy.busyPercent(),
    }
    const after = await items()
    let repriced = 0
    let costMoved = 0
    let switchedOff = 0
    let switchedOn = 0
    for (const [id, was] of before) {
      const now = after.get(id)!
      if (now.price !== was.price) repriced++
      if (now.cost !== was.cost) costMoved++
      if (was.serving && !now.serving) switchedOff++
      if (!was.serving && now.serving) switchedOn++
    }

    // The same list again: what a sync that finds nothing changed costs.
    started = performance.now()
    const unchanged = await deps.admin('POST', `/providers/${PROVIDER}/sync?force=true`)
    const unchangedSyncMs = ms(started)

    return {
      products: PRODUCTS,
      listed: second.listed,
      first_sync_ms: firstSyncMs,
      import: { items_created: imported.created.length, ms: importMs },
      first_sync_changes: first.changes,
      steered: { repriced: steered.repriced.length, off: steered.off.length, gone: steered.gone.length },
      // The figure: the second sync, read + apply + reprice, as the operator's POST waits for it.
      sync,
      sync_changes: second.changes,
      items: { linked: before.size, repriced, cost_moved: costMoved, switched_off: switchedOff, switched_on: switchedOn },
      unchanged_sync: { ms: unchangedSyncMs, changes: unchanged.changes },
    }
  } finally {
    await server.close()
    await db.end()
  }
}
