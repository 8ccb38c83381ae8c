/**
 * npm run bench: a real server on PostgreSQL, seeded here (100 accounts, 50 auto items with ample
 * licenses, one hot item), autocannon on POST /v1/trx with unique ref_ids, and in the same run the
 * fixed database ceiling of ../shared/bench-reference/run.sh. Writes bench/results/<time>.json.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {
  BASE_URL,
  ROOT,
  api,
  checkpoint,
  cpuSeconds,
  freePort,
  machineBusy,
  postgresCpu,
  postgresCpuSince,
  purchaseLoad,
  recreateDatabase,
  rssMb,
  startServer,
} from './harness.js'
import { embeddedBench } from './embedded.js'
import { pacedLoad } from './paced.js'
import { levelRows, replicaRows, summarize, supplierRows, upstreamRows, type BenchReport } from './summary.js'
import { leaderboardBench } from './leaderboard.js'
import { levelRecompute } from './levels.js'
import { readsBench } from './reads.js'
import { replicaBench } from './replica.js'
import { supplierBench } from './suppliers.js'
import { upstreamBench } from './upstream.js'
import { webhookBench } from './webhooks.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15)
const ACCOUNTS = 100
const ITEMS = 50
// Stock for a quick machine: a phase that sells out measures refusals (cheap), not purchases.
const LICENSES_PER_ITEM = Number(process.env.BENCH_LICENSES ?? 8000)
const HOT_LICENSES = Number(process.env.BENCH_HOT_LICENSES ?? 120000)
// BENCH_ONLY=webhooks skips the purchase phases; the webhook phases then run at BENCH_RATE purchases/s.
// BENCH_ONLY=reads runs the read routes alone; BENCH_ONLY=purchases the purchase phases and the reference;
// BENCH_ONLY=embedded the embedded database's phase; BENCH_ONLY=upstream the upstream dispatch phases at
// half and a quarter of BENCH_RATE, on a database with only what they seed themselves; BENCH_ONLY=suppliers
// the sync of a 5,000-product price list, likewise; BENCH_ONLY=levels the full listing at one and at four price
// levels, with the no-op route, then the recomputation of 5,000 items × 4 levels after rule changes.
// BENCH_ONLY=replica the replica phase: a private primary and a pg_basebackup -R replica, BENCH_REPLICA_SECONDS a route.
const ONLY = process.env.BENCH_ONLY
const REPLICA_SECONDS = Number(process.env.BENCH_REPLICA_SECONDS ?? 5)
const FIXED_RATE = Number(process.env.BENCH_RATE ?? 750)

function referenceCeiling(): { reference_tps: number; latency_avg_ms: number; machine_busy_percent: number } {
  const script = path.resolve(ROOT, '../shared/bench-reference/run.sh')
  const busy = machineBusy()
  const out = execFileSync('bash', [script, BASE_URL], { encoding: 'utf8', env: { ...process.env, SECONDS_RUN: String(SECONDS) } })
  // The script's set-up and clean-up are in the reading too: a few hundred milliseconds of fifteen seconds.
  const machine_busy_percent = busy.busyPercent()
  const line = out.trim().split('\n').at(-1)!
  return { ...JSON.parse(line), machine_busy_percent }
}

async function seed(base: string) {
  const keys: string[] = []
  for (let i = 0; i < ACCOUNTS; i++) {
    const account = await api(base, 'POST', '/resellers', { name: `bench ${i}` })
    await api(base, 'POST', `/resellers/${account.id}/balance`, { amount: 1e14, reason: 'bench' })
    keys.push(account.api_key)
  }
  const items: number[] = []
  for (let i = 0; i < ITEMS + 1; i++) {
    const item = await api(base, 'POST', '/items', {
      product_name: 'Bench Voucher',
      name: `Voucher ${i}`,
      sku: `BENCH-${i}`,
      price: 1000 + i,
      order_process: 'auto',
    })
    const count = i === ITEMS ? HOT_LICENSES : LICENSES_PER_ITEM
    for (let done = 0; done < count; done += 10000) {
      const batch = Array.from(
        { length: Math.min(10000, count - done) },
        (_, n) => `BENCH-${i}-${done + n}-${Math.random().toString(36).slice(2)}`,
      )
      await api(base, 'POST', `/items/${item.id}/licenses`, { licenses: batch })
    }
    items.push(item.id)
  }
  return { keys, items: items.slice(0, ITEMS), hot: items[ITEMS] }
}

type Pick = () => { key: string; item: number }

const random = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]
/** Purchases spread over every account and item. */
const spreadOver =
  (keys: string[], items: number[]): Pick =>
  () => ({ key: random(keys), item: random(items) })

let refCounter = 0
function purchaseRequest(pick: Pick) {
  const { key, item } = pick()
  const body = JSON.stringify({ ref_id: `bench-${process.pid}-${++refCounter}`, carts: [{ item_id: item, quantity: 1 }] })
  return { path: '/api/v1/trx', headers: { 'content-type': 'application/json', 'x-apikey': key }, body }
}

async function load(base: string, { connections, pick, pid }: { connections: number; pick: Pick; pid?: number }) {
  const cpuBefore = { server: pid ? cpuSeconds(pid) : 0, postgres: postgresCpu() }
  const { result, peakRssMb, machineBusyPercent } = await purchaseLoad(base, {
    connections,
    seconds: SECONDS,
    pid,
    next: () => purchaseRequest(pick),
  })
  const statusCodes = result.statusCodeStats as Record<string, { count: number }> | undefined
  const count = (code: string) => statusCodes?.[code]?.count ?? 0
  const errors = result['5xx'] + count('429') + result.errors + result.timeouts
  // CPU per purchase, in µs: what a busy machine disturbs less than req/s.
  const perRequest = (seconds: number) => Math.round((seconds * 1e6) / Math.max(1, result.requests.total))
  return {
    ...(pid && { server_cpu_us_per_req: perRequest(cpuSeconds(pid) - cpuBefore.server) }),
    postgres_cpu_us_per_req: perRequest(postgresCpuSince(cpuBefore.postgres)),
    req_per_s: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    requests: result.requests.total,
    non_2xx: result.non2xx,
    errors,
    peak_rss_mb: peakRssMb,
    machine_busy_percent: machineBusyPercent,
  }
}

type Seeded = { base: string; databaseUrl: string; port: number; serverPid?: number } & Awaited<ReturnType<typeof seed>>

/** One part of the bench alone, on a fresh seeded database: for iterating on it (the figures of run.ts otherwise). */
async function only(part: (s: Seeded) => Promise<unknown>, seeding: (base: string) => ReturnType<typeof seed> = seed) {
  const databaseUrl = await recreateDatabase()
  const port = await freePort()
  const server = await startServer(databaseUrl, port)
  const base = `http://127.0.0.1:${port}`
  try {
    console.log('seeding …')
    await part({ base, databaseUrl, port, serverPid: server.pid, ...(await seeding(base)) })
  } finally {
    server.kill('SIGTERM')
  }
}

// BENCH_PRELOAD=<seconds>: purchases at full speed first, as the full run's purchase phases leave the database.
async function preload(base: string, keys: string[], items: number[]) {
  const seconds = Number(process.env.BENCH_PRELOAD ?? 0)
  const spread = spreadOver(keys, items)
  if (seconds > 0) await purchaseLoad(base, { connections: 64, seconds, next: () => purchaseRequest(spread) })
}

async function readsOnly({ base, databaseUrl, keys, items, serverPid }: Seeded) {
  await preload(base, keys, items)
  return readsBench({ base, seconds: SECONDS, admin: (m, u, b) => api(base, m, u, b), keys, items, serverPid, databaseUrl })
}

/** The price levels' figures: the listing at one and four levels beside the no-op route, and a recomputation. */
async function levelsOnly({ base, databaseUrl, keys, items, serverPid }: Seeded) {
  const admin = (m: string, u: string, b?: object) => api(base, m, u, b)
  const reads = await readsBench({ base, seconds: SECONDS, admin, keys, items, serverPid, databaseUrl, routes: ['item?per_page=all'] })
  const levels = await levelRecompute(databaseUrl)
  console.log(JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, reads, levels }, null, 2))
  console.table(levelRows(levels))
}

/** The webhook phases at a fixed rate. */
async function webhooksOnly({ base, databaseUrl, port, keys, items, serverPid }: Seeded) {
  const spread = spreadOver(keys, items)
  await preload(base, keys, items)
  const webhooks = await webhookBench({
    base,
    databaseUrl,
    keys,
    rate: FIXED_RATE,
    seconds: SECONDS,
    request: () => purchaseRequest(spread),
    startWorker: () => startServer(databaseUrl, port, { WORKERS: 'only' }, 'workers running'),
    serverPid: serverPid!,
    burst: () => load(base, { connections: 64, pick: spread }),
  })
  console.log(JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, webhooks }, null, 2))
}

/** The upstream phases at BENCH_RATE: they seed their own provider, item and accounts. */
async function upstreamOnly({ base, databaseUrl, port }: Seeded) {
  const upstream = await upstreamBench({
    base,
    databaseUrl,
    purchaseRate: FIXED_RATE,
    seconds: SECONDS,
    startWorker: () => startServer(databaseUrl, port, { WORKERS: 'only' }, 'workers running'),
    admin: (m, u, b) => api(base, m, u, b),
  })
  const summary = upstreamRows(upstream)
  console.log(JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, purchase_rate: FIXED_RATE, upstream }, null, 2))
  console.table(summary)
}
const seedNothing = async () => ({ keys: [], items: [], hot: 0 })

/** The supplier sync phase: it seeds its own provider, list and items. */
async function suppliersOnly({ base, databaseUrl, serverPid }: Seeded) {
  const suppliers = await supplierBench({ databaseUrl, serverPid: serverPid!, admin: (m, u, b) => api(base, m, u, b) })
  console.log(JSON.stringify({ at: new Date().toISOString(), suppliers }, null, 2))
  console.table(supplierRows(suppliers))
}

/** The replica phase: clusters of its own, nothing seeded here. */
async function replicaOnly() {
  const replica = await replicaBench(REPLICA_SECONDS)
  const report = { at: new Date().toISOString(), replica, summary: replicaRows(replica) }
  console.log(JSON.stringify(report, null, 2))
  console.table(report.summary)
  fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true })
  fs.writeFileSync(path.join(ROOT, 'bench/results', `${report.at.replace(/[:.]/g, '-')}-replica.json`), JSON.stringify(report, null, 2))
}

type Reading = ReturnType<typeof referenceCeiling>

/**
 * The two throughput phases, each between two readings of the reference and held to their mean:
 * the machine's speed drifts within minutes, and a reading next to the phase says more of it.
 */
async function throughputPhases({ base, keys, items, hot, serverPid }: Seeded) {
  const spread = spreadOver(keys, items)
  console.log('warm-up …')
  await load(base, { connections: 16, pick: spread }).catch(() => undefined)
  const reading = () => (console.log(`reference ceiling (pgbench, ${SECONDS}s) …`), referenceCeiling())
  const first = reading()
  console.log('purchase throughput, 64 connections …')
  const purchase = await load(base, { connections: 64, pick: spread, pid: serverPid })
  const between = reading()
  console.log('hot item throughput, 64 connections …')
  const hotItem = await load(base, { connections: 64, pick: () => ({ key: random(keys), item: hot }), pid: serverPid })
  const last = reading()
  const mean = (a: Reading, b: Reading) => (a.reference_tps + b.reference_tps) / 2
  const readings = [first, between, last]
  return {
    reference: { reference_tps: Number((readings.reduce((sum, r) => sum + r.reference_tps, 0) / 3).toFixed(1)), readings },
    purchase,
    hot_item: hotItem,
    purchase_ratio: Number((purchase.req_per_s / mean(first, between)).toFixed(3)),
    hot_item_ratio: Number((hotItem.req_per_s / mean(between, last)).toFixed(3)),
  }
}

/** The purchase phases alone. */
async function purchasesOnly(seeded: Seeded) {
  console.log(JSON.stringify(await throughputPhases(seeded), null, 2))
}

async function main() {
  if (ONLY === 'purchases') return only(purchasesOnly)
  if (ONLY === 'webhooks') return only(webhooksOnly)
  if (ONLY === 'reads') return only(readsOnly)
  if (ONLY === 'levels') return only(levelsOnly)
  if (ONLY === 'upstream') return only(upstreamOnly, seedNothing)
  if (ONLY === 'suppliers') return only(suppliersOnly, seedNothing)
  if (ONLY === 'embedded') return console.log(JSON.stringify(await embeddedBench(SECONDS), null, 2))
  if (ONLY === 'replica') return replicaOnly()
  const databaseUrl = await recreateDatabase()
  const port = await freePort()
  let server = await startServer(databaseUrl, port)
  const base = `http://127.0.0.1:${port}`
  try {
    console.log('seeding …')
    const seedStarted = performance.now()
    const seeded = await seed(base)
    const { keys, items } = seeded
    console.log(`seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`)
    // A fresh process for the purchase figures: the seed's bulk license uploads leave garbage in
    // V8's heap for a while, which is not the purchase load's memory.
    server.kill('SIGTERM')
    await new Promise((resolve) => server.once('exit', resolve))
    server = await startServer(databaseUrl, port)
    const phases = await throughputPhases({ ...seeded, base, databaseUrl, port, serverPid: server.pid })
    const spread = spreadOver(keys, items)
    const rate = Math.max(1, Math.round(phases.purchase.req_per_s / 2))
    console.log(`purchase latency at ${rate} req/s …`)
    const latency = await pacedLoad({ base, rate, seconds: SECONDS, request: () => purchaseRequest(spread) })
    const serverRss = rssMb(server.pid!)
    const admin = (m: string, u: string, b?: object) => api(base, m, u, b)
    const reads = await readsBench({ base, seconds: SECONDS, admin, keys, items, serverPid: server.pid, databaseUrl })
    // 5,000 items more, and each of the four levels the reads made repriced by a rule change.
    const levels = await levelRecompute(databaseUrl)
    // The machine's speed drifts in the minutes since the purchase phase: the webhook phases run at
    // half of what the service buys at the speed a reading taken just before them finds.
    console.log(`reference ceiling (pgbench, ${SECONDS}s) before the webhook phases …`)
    const webhookReading = referenceCeiling()
    const webhookRate = Math.max(1, Math.round((phases.purchase_ratio * webhookReading.reference_tps) / 2))
    const webhooks = await webhookBench({
      base,
      databaseUrl,
      keys,
      rate: webhookRate,
      seconds: SECONDS,
      request: () => purchaseRequest(spread),
      startWorker: () => startServer(databaseUrl, port, { WORKERS: 'only' }, 'workers running'),
      serverPid: server.pid!,
      burst: () => load(base, { connections: 64, pick: spread }),
    })
    // h2h dispatch at half and a quarter of the purchase rate the machine showed, with accounts of its own (no webhooks).
    const upstream = await upstreamBench({
      base,
      databaseUrl,
      purchaseRate: phases.purchase.req_per_s,
      seconds: SECONDS,
      startWorker: () => startServer(databaseUrl, port, { WORKERS: 'only' }, 'workers running'),
      admin: (m, u, b) => api(base, m, u, b),
    })
    // A 5,000-product price list synced, its items repriced and switched (a few seconds, its own provider and items).
    const suppliers = await supplierBench({ databaseUrl, serverPid: server.pid!, admin: (m, u, b) => api(base, m, u, b) })
    // Clusters of its own on other ports, ten routes × BENCH_REPLICA_SECONDS: the primary's CPU per read, with and without a replica.
    const replica = await replicaBench(REPLICA_SECONDS)
    // Last: it adds 100,000 accounts to the database.
    const leaderboard = await leaderboardBench({ base, databaseUrl, keys, seconds: SECONDS })
    // The embedded phase gets the machine to itself: the server gone, PostgreSQL's dirty pages written.
    server.kill('SIGTERM')
    await new Promise((resolve) => server.once('exit', resolve))
    await checkpoint()
    const embedded = await embeddedBench(SECONDS)
    const report = {
      at: new Date().toISOString(),
      seconds: SECONDS,
      reference: phases.reference,
      purchase: phases.purchase,
      purchase_peak_rss_mb: phases.purchase.peak_rss_mb,
      purchase_at_half_rate: { rate, ...latency },
      hot_item: phases.hot_item,
      server_rss_mb: serverRss,
      purchase_ratio: phases.purchase_ratio,
      hot_item_ratio: phases.hot_item_ratio,
      webhooks: { rate_from: { purchase_ratio: phases.purchase_ratio, reading: webhookReading }, ...webhooks },
      upstream,
      suppliers,
      replica,
      leaderboard,
      reads,
      levels,
      embedded,
    }
    const summary = summarize(report as unknown as BenchReport)
    console.log(JSON.stringify(report, null, 2))
    console.table(summary)
    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true })
    fs.writeFileSync(
      path.join(ROOT, 'bench/results', `${report.at.replace(/[:.]/g, '-')}.json`),
      JSON.stringify({ ...report, summary }, null, 2),
    )
  } finally {
    server.kill('SIGTERM')
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
