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
import pg from 'pg'
import { DB_NAME, ROOT, dropDatabase, freePort, recreateDatabase, startServer } from './harness.js'
import {
  OWN_ORDERS,
  audit,
  ownDeliveries,
  backendsCpu,
  buy,
  catalog,
  growthTargets,
  measure as measureWith,
  readerFigure,
  reseller,
  type Target,
} from './growth-parts.js'
import { growthSeedSql } from './growth-seed.js'
import { tableSizes } from './growth-sizes.js'

const flag = process.argv.find((a) => a.startsWith('--scale='))
const SCALE = Number(flag ? flag.slice('--scale='.length) : (process.env.GROWTH_SCALE ?? 0.02))
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
let probeCpu = async () => new Map<number, number>()
const measure = (base: string, t: Target, seconds = SECONDS) => measureWith(base, t, seconds, probeCpu)
const GROWTH_DB = `${DB_NAME}_growth`

async function main() {
  const databaseUrl = await recreateDatabase(GROWTH_DB)
  const port = await freePort()
  const server = await startServer(databaseUrl, port)
  const base = `http://127.0.0.1:${port}`
  const db = new pg.Client({ connectionString: databaseUrl })
  await db.connect()
  probeCpu = backendsCpu(db, server.pid!)
  try {
    console.log('catalog and measured accounts …')
    const { filler, sellable } = await catalog(base)
    const reader = await reseller(base, 'growth reader')
    const whale = await reseller(base, 'growth whale')
    const buyers = await Promise.all(Array.from({ length: 8 }, (_, i) => reseller(base, `growth buyer ${i}`)))
    for (let i = 0; i < OWN_ORDERS; i++) await buy(base, reader.key, `own-${i}`, sellable[i % sellable.length]!)
    await ownDeliveries(db, reader.id)
    const side = { base, reader, buyers, sellable }
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
    const purchase = (await growthTargets(side)).find((t) => t.method === 'POST')!
    console.log('empty database …')
    await measure(base, { ...purchase, name: 'warm-up' })
    // After the warm-up's purchases: statistics taken before them (the reader as every order of
    // the table) steered the lists to the primary key and made the empty database the slow one.
    await db.query('VACUUM ANALYZE')
    const before = await run(await growthTargets(side))

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
    const grown = await run(await growthTargets({ ...side, whale }))
    const isWhale = ([name]: [string, unknown]) => name.startsWith('whale ')
    const after = Object.fromEntries(Object.entries(grown).filter((e) => !isWhale(e)))
    const whaleFigures = Object.fromEntries(Object.entries(grown).filter(isWhale))
    // Each of its range statements is bounded by DB_STATEMENT_TIMEOUT_MS: lower it to see the ranges hold on the whale.
    const audits = { reader: await audit(base, reader.id), whale: await audit(base, whale.id) }
    console.log('ledger audit:', audits)
    const ratio = (a: number, b: number) => Number((a / Math.max(b, 1)).toFixed(2))
    const table = Object.keys(before).map((name) => {
      const [empty, grown] = [before[name]!, after[name]!]
      return {
        figure: name,
        empty_req_s: empty.req_per_s,
        grown_req_s: grown.req_per_s,
        cost_ratio: ratio(empty.req_per_s, grown.req_per_s),
        empty_cpu_us: empty.cpu_us,
        grown_cpu_us: grown.cpu_us,
        cpu_ratio: ratio(grown.cpu_us, empty.cpu_us),
        normalized_ratio: 0,
      }
    })
    const noop = table.find((r) => r.figure === 'GET /healthz (no-op)')!
    // Over the no-op's own ratio (below 1 when the machine was busier in the empty phase).
    const over = (r: number) => Number((r / noop.cost_ratio).toFixed(2))
    for (const row of table) row.normalized_ratio = over(row.cost_ratio)
    for (const [name, f] of Object.entries(whaleFigures)) {
      const empty = before[readerFigure(name)]!
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
