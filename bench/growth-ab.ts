/**
 * npm run bench:growth-ab: bench:growth's figures measured side by side, for a shared machine. A
 * fresh empty database and the grown one a `GROWTH_KEEP=1` run left (`<BENCH_DB_NAME>_growth`),
 * each behind its own server; every figure is measured on one and then the other, GROWTH_ROUNDS
 * times (default 2), so both see the same neighbours. The best round of each counts (the most
 * requests per second, the least CPU per request). Writes bench/results/growth-ab-<time>.json.
 */
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { BASE_URL, DB_NAME, ROOT, api, freePort, recreateDatabase, startServer } from './harness.js'
import {
  OWN_ORDERS,
  backendsCpu,
  buy,
  catalog,
  growthTargets,
  measure,
  ownDeliveries,
  readerFigure,
  reseller,
  type Target,
  type Who,
} from './growth-parts.js'
import { tableSizes } from './growth-sizes.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const ROUNDS = Number(process.env.GROWTH_ROUNDS ?? 2)

async function side(url: string) {
  const port = await freePort()
  const server = await startServer(url, port)
  const db = new pg.Client({ connectionString: url })
  await db.connect()
  return { base: `http://127.0.0.1:${port}`, server, db, probe: backendsCpu(db, server.pid!) }
}

async function main() {
  const grownUrl = new URL(BASE_URL)
  grownUrl.pathname = `/${DB_NAME}_growth`
  const grown = await side(grownUrl.toString())
  const empty = await side(await recreateDatabase(`${DB_NAME}_growth_empty`))
  try {
    console.log('empty side: catalog and accounts …')
    const { sellable } = await catalog(empty.base)
    const e = { reader: await reseller(empty.base, 'growth reader'), buyers: [] as Who[] }
    for (let i = 0; i < 8; i++) e.buyers.push(await reseller(empty.base, `growth buyer ${i}`))
    for (let i = 0; i < OWN_ORDERS; i++) await buy(empty.base, e.reader.key, `own-${i}`, sellable[i % sellable.length]!)
    await ownDeliveries(empty.db, e.reader.id)
    console.log('grown side: new keys for the kept accounts …')
    const keyOf = async (name: string): Promise<Who> => {
      const { rows } = await grown.db.query<{ id: number }>('SELECT id::int AS id FROM accounts WHERE name = $1', [name])
      return { id: rows[0]!.id, key: (await api(grown.base, 'POST', `/resellers/${rows[0]!.id}/api-keys`)).api_key }
    }
    const g = { reader: await keyOf('growth reader'), whale: await keyOf('growth whale'), buyers: [] as Who[] }
    for (let i = 0; i < 8; i++) g.buyers.push(await keyOf(`growth buyer ${i}`))
    await ownDeliveries(grown.db, g.reader.id)
    const grownSellable = (
      await grown.db.query<{ id: number }>(`SELECT id::int AS id FROM items WHERE sku LIKE 'GROWTH-%' ORDER BY id LIMIT 10`)
    ).rows.map((r) => r.id)

    const emptyTargets = await growthTargets({ base: empty.base, ...e, sellable })
    const grownTargets = await growthTargets({ base: grown.base, ...g, sellable: grownSellable })
    // Warm both, then fresh statistics on the empty side (the warm-up's purchases) as bench:growth does.
    const purchase = (list: Target[]) => list.find((t) => t.method === 'POST')!
    await measure(empty.base, purchase(emptyTargets), 2, empty.probe)
    await measure(grown.base, purchase(grownTargets), 2, grown.probe)
    await empty.db.query('VACUUM ANALYZE')

    type Figure = Awaited<ReturnType<typeof measure>>
    const best = (runs: Figure[]) => ({
      req_per_s: Math.max(...runs.map((r) => r.req_per_s)),
      cpu_us: Math.min(...runs.map((r) => r.cpu_us)),
      p99_ms: Math.min(...runs.map((r) => r.p99_ms)),
      non_2xx: runs.reduce((n, r) => n + r.non_2xx, 0),
      rounds: runs,
    })
    const pairs = grownTargets.map((t): [Target, Target] => [emptyTargets.find((x) => x.name === readerFigure(t.name))!, t])
    const table = []
    for (const [a, b] of pairs) {
      const runs: { empty: Figure[]; grown: Figure[] } = { empty: [], grown: [] }
      for (let round = 0; round < ROUNDS; round++) {
        // Each side warmed by a second of the same requests; the order flips each round.
        const order = round % 2 === 0 ? (['empty', 'grown'] as const) : (['grown', 'empty'] as const)
        for (const which of order) {
          const [s, t] = which === 'empty' ? [empty, a] : [grown, b]
          await measure(s.base, t, 1, s.probe)
          runs[which].push(await measure(s.base, t, SECONDS, s.probe))
        }
      }
      const [x, y] = [best(runs.empty), best(runs.grown)]
      const row = {
        figure: b.name,
        empty_req_s: x.req_per_s,
        grown_req_s: y.req_per_s,
        cost_ratio: Number((x.req_per_s / Math.max(y.req_per_s, 1)).toFixed(2)),
        empty_cpu_us: x.cpu_us,
        grown_cpu_us: y.cpu_us,
        cpu_ratio: Number((y.cpu_us / Math.max(x.cpu_us, 1)).toFixed(2)),
        runs,
      }
      table.push(row)
      console.log(
        `  ${row.figure}: ${row.empty_req_s} → ${row.grown_req_s} req/s (${row.cost_ratio}), CPU ${row.empty_cpu_us} → ${row.grown_cpu_us} µs (${row.cpu_ratio})`,
      )
    }
    console.table(table.map(({ runs: _, ...r }) => r))
    const sizes = await tableSizes(grown.db)
    const report = { at: new Date().toISOString(), seconds: SECONDS, rounds: ROUNDS, grown_db: `${DB_NAME}_growth`, sizes, table }
    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true })
    fs.writeFileSync(path.join(ROOT, 'bench/results', `growth-ab-${report.at.replace(/[:.]/g, '-')}.json`), JSON.stringify(report, null, 2))
  } finally {
    for (const s of [grown, empty]) {
      s.server.kill('SIGTERM')
      await s.db.end()
    }
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
