/**
 * npm run bench:growth [-- --scale=1]: the reads and the purchase on an empty database, then the
 * same after set-based SQL has added, at scale 1, 100k accounts, 10M orders (one line each), 5M
 * licenses and 20M ledger entries (one account, the whale, holds a tenth of the orders and
 * entries). Prints each figure before and after and their ratio (target: within 1.2x), writes
 * bench/results/growth-<time>.json and drops its database (GROWTH_KEEP=1 keeps it). Default scale
 * 0.02 (a few minutes).
 */
import fs from 'node:fs'
import path from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import { ADMIN, DB_NAME, ROOT, api, cpuSeconds, dropDatabase, freePort, recreateDatabase, startServer } from './harness.js'
import { growthSeedSql } from './growth-seed.js'
import { tableSizes } from './growth-sizes.js'

const flag = process.argv.find((a) => a.startsWith('--scale='))
const SCALE = Number(flag ? flag.slice('--scale='.length) : (process.env.GROWTH_SCALE ?? 0.02))
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const GROWTH_DB = `${DB_NAME}_growth`
const OWN_ORDERS = 100 // the measured account's own orders: the average at scale 1 (10M / 100k)

type Target = { name: string; key: () => string; method?: 'GET' | 'POST'; path: () => string; body?: () => string }

/** CPU seconds so far of the server and of every backend on the bench's database, by pid. */
type CpuProbe = () => Promise<Map<number, number>>
let probeCpu: CpuProbe = async () => new Map()
const cpuOf = (pid: number) => {
  try {
    return cpuSeconds(pid)
  } catch {
    return 0 // gone meanwhile
  }
}

async function measure(base: string, t: Target, seconds = SECONDS) {
  const cpuBefore = await probeCpu()
  const result = await autocannon({
    url: base,
    connections: 32,
    duration: seconds,
    requests: [
      {
        method: t.method ?? 'GET',
        setupRequest: (request: any) => ({
          ...request,
          path: t.path(),
          headers: { 'x-apikey': t.key(), 'content-type': 'application/json' },
          body: t.body?.(),
        }),
      },
    ],
  })
  const cpuAfter = await probeCpu()
  let cpu = 0
  for (const [pid, after] of cpuAfter) cpu += after - (cpuBefore.get(pid) ?? 0)
  // On a shared machine the rate moves with the neighbours' load; the CPU each request cost the
  // server and PostgreSQL (microseconds) moves far less.
  const cpu_us = Math.round((cpu * 1e6) / Math.max(result.requests.total, 1))
  return { req_per_s: Math.round(result.requests.average), p99_ms: result.latency.p99, non_2xx: result.non2xx, cpu_us }
}

async function catalog(base: string) {
  const items: number[] = []
  for (let p = 0; p < 50; p++) {
    for (let v = 0; v < 4; v++) {
      const item = await api(base, 'POST', '/items', {
        product_name: `Growth Product ${p}`,
        name: `Variant ${v}`,
        sku: `GROWTH-${p}-${v}`,
        price: 1000 + v,
        order_process: 'auto',
      })
      items.push(item.id)
    }
  }
  const sellable = items.slice(0, 10)
  for (const id of sellable) {
    const licenses = Array.from({ length: 5000 }, (_, n) => `GROWTH-${id}-${n}-${Math.random().toString(36).slice(2)}`)
    await api(base, 'POST', `/items/${id}/licenses`, { licenses })
  }
  return { filler: items[items.length - 1]!, sellable }
}

/** The operator's ledger audit of one account (GET /resellers/{id}/audit): one request, its wall time. */
async function audit(base: string, id: number) {
  const started = performance.now()
  const res = await fetch(`${base}/api/admin/v1/resellers/${id}/audit`, { headers: { authorization: `Bearer ${ADMIN}` } })
  const body = (await res.json()) as { data?: { consistent: boolean } }
  return { status: res.status, ms: Math.round(performance.now() - started), consistent: body.data?.consistent ?? null }
}

async function reseller(base: string, name: string) {
  const account = await api(base, 'POST', '/resellers', { name })
  await api(base, 'POST', `/resellers/${account.id}/balance`, { amount: 1e13, reason: 'bench' })
  return { id: account.id as number, key: account.api_key as string }
}

async function buy(base: string, key: string, ref: string, item: number) {
  const res = await fetch(`${base}/api/v1/trx`, {
    method: 'POST',
    headers: { 'x-apikey': key, 'content-type': 'application/json' },
    body: JSON.stringify({ ref_id: ref, carts: [{ item_id: item, quantity: 1 }] }),
  })
  if (!res.ok) throw new Error(`purchase ${ref}: ${res.status} ${await res.text()}`)
}

async function main() {
  const databaseUrl = await recreateDatabase(GROWTH_DB)
  const port = await freePort()
  const server = await startServer(databaseUrl, port)
  const base = `http://127.0.0.1:${port}`
  const db = new pg.Client({ connectionString: databaseUrl })
  await db.connect()
  probeCpu = async () => {
    const { rows } = await db.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    )
    return new Map([server.pid!, ...rows.map((r) => r.pid)].map((pid) => [pid, cpuOf(pid)]))
  }
  try {
    console.log('catalog and measured accounts …')
    const { filler, sellable } = await catalog(base)
    const reader = await reseller(base, 'growth reader')
    const whale = await reseller(base, 'growth whale')
    const buyers = await Promise.all(Array.from({ length: 8 }, (_, i) => reseller(base, `growth buyer ${i}`)))
    for (let i = 0; i < OWN_ORDERS; i++) await buy(base, reader.key, `own-${i}`, sellable[i % sellable.length]!)
    let ref = 0
    const random = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!
    const lastPage = (key: string) =>
      fetch(`${base}/api/v1/trx?per_page=20`, { headers: { 'x-apikey': key } }).then(async (r) => ((await r.json()) as any).meta.last_page)
    const targets = async (who: { key: string }, tag: string): Promise<Target[]> => {
      const last = await lastPage(who.key)
      const refs = tag === 'whale' ? ['g10', 'g20'] : ['own-1', 'own-50']
      return [
        { name: `${tag} GET /trx/{ref}`, key: () => who.key, path: () => `/api/v1/trx/${random(refs)}` },
        { name: `${tag} GET /trx page 1`, key: () => who.key, path: () => '/api/v1/trx?per_page=20' },
        { name: `${tag} GET /trx last page (${last})`, key: () => who.key, path: () => `/api/v1/trx?per_page=20&page=${last}` },
        { name: `${tag} GET /balance/mutations`, key: () => who.key, path: () => '/api/v1/balance/mutations' },
        { name: `${tag} GET /webhook/deliveries`, key: () => who.key, path: () => '/api/v1/webhook/deliveries' },
      ]
    }
    const shared: Target[] = [
      // The yardstick: a route that touches no table. The machine is shared, so each figure's
      // ratio is also given over this one's (normalized_ratio).
      { name: 'GET /healthz (no-op)', key: () => reader.key, path: () => '/healthz' },
      { name: 'GET /item?per_page=all', key: () => reader.key, path: () => '/api/v1/item?per_page=all' },
      {
        name: 'POST /trx (purchase)',
        method: 'POST',
        key: () => random(buyers).key,
        path: () => '/api/v1/trx',
        body: () => JSON.stringify({ ref_id: `growth-${++ref}`, carts: [{ item_id: random(sellable), quantity: 1 }] }),
      },
    ]
    const purchase = shared.find((t) => t.method === 'POST')!
    const run = async (list: Target[]) => {
      const out: Record<string, Awaited<ReturnType<typeof measure>>> = {}
      for (const t of list) {
        // A second of the same requests first: the route's code and its prepared statement warm.
        await measure(base, t, 1)
        out[t.name] = await measure(base, t)
        console.log(`  ${t.name}: ${out[t.name]!.req_per_s} req/s, p99 ${out[t.name]!.p99_ms} ms`)
      }
      return out
    }
    console.log('empty database …')
    await measure(base, { ...purchase, name: 'warm-up' })
    // After the warm-up's purchases: statistics taken before them (the reader as every order of
    // the table) steered the lists to the primary key and made the empty database the slow one.
    await db.query('VACUUM ANALYZE')
    const before = await run([...(await targets(reader, 'reader')), ...shared])

    console.log(`seeding at scale ${SCALE} …`)
    const started = Date.now()
    const seedSteps: Record<string, number> = {}
    for (const [label, statement] of growthSeedSql({ scale: SCALE, filler, whale: whale.id })) {
      const t = Date.now()
      await db.query(statement)
      seedSteps[label] = Number(((Date.now() - t) / 1000).toFixed(1))
      console.log(`  ${label}: ${seedSteps[label]} s`)
    }
    const seedSeconds = Math.round((Date.now() - started) / 1000)
    const { rows: sizes, indexes } = await tableSizes(db)
    // The seed's dirty pages are written now, not by a checkpoint in the middle of the figures.
    await db.query('CHECKPOINT')
    console.table(sizes)
    await measure(base, { ...purchase, name: 'warm-up' })
    const after = await run([...(await targets(reader, 'reader')), ...shared])
    const whaleFigures = await run(await targets(whale, 'whale'))
    // Each of its range statements is bounded by DB_STATEMENT_TIMEOUT_MS: lower it to see the ranges hold on the whale.
    const audits = { reader: await audit(base, reader.id), whale: await audit(base, whale.id) }
    console.log('ledger audit:', audits)
    const ratio = (a: number, b: number) => Number((a / Math.max(b, 1)).toFixed(2))
    const strip = (name: string) => name.replace(/ \(\d+\)$/, '')
    const table = Object.keys(before).map((name) => {
      const grown = Object.entries(after).find(([n]) => strip(n) === strip(name))![1]
      return {
        figure: strip(name),
        empty_req_s: before[name]!.req_per_s,
        grown_req_s: grown.req_per_s,
        cost_ratio: ratio(before[name]!.req_per_s, grown.req_per_s),
        empty_cpu_us: before[name]!.cpu_us,
        grown_cpu_us: grown.cpu_us,
        cpu_ratio: ratio(grown.cpu_us, before[name]!.cpu_us),
        normalized_ratio: 0,
      }
    })
    const noop = table.find((r) => r.figure === 'GET /healthz (no-op)')!
    // Over the no-op's own ratio (below 1 when the machine was busier in the empty phase).
    const over = (r: number) => Number((r / noop.cost_ratio).toFixed(2))
    for (const row of table) row.normalized_ratio = over(row.cost_ratio)
    for (const [name, f] of Object.entries(whaleFigures)) {
      const empty = Object.entries(before).find(([n]) => strip(n) === strip(name).replace('whale', 'reader'))![1]
      table.push({
        figure: name,
        empty_req_s: empty.req_per_s,
        grown_req_s: f.req_per_s,
        cost_ratio: ratio(empty.req_per_s, f.req_per_s),
        empty_cpu_us: empty.cpu_us,
        grown_cpu_us: f.cpu_us,
        cpu_ratio: ratio(f.cpu_us, empty.cpu_us),
        normalized_ratio: over(ratio(empty.req_per_s, f.req_per_s)),
      })
    }
    console.table(table)
    const report = {
      at: new Date().toISOString(),
      scale: SCALE,
      seconds: SECONDS,
      seed_seconds: seedSeconds,
      seed_steps: seedSteps,
      sizes,
      indexes,
      table,
      before,
      after,
      whale: whaleFigures,
      audits,
    }
    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true })
    fs.writeFileSync(path.join(ROOT, 'bench/results', `growth-${report.at.replace(/[:.]/g, '-')}.json`), JSON.stringify(report, null, 2))
  } finally {
    server.kill('SIGTERM')
    await db.end()
    await new Promise((resolve) => server.once('exit', resolve))
    // GROWTH_KEEP=1 leaves the grown database for EXPLAIN (dropped by the next run).
    if (!process.env.GROWTH_KEEP) await dropDatabase(GROWTH_DB)
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
