/**
 * npm run bench:purchase-cost: where a purchase's cost goes, on PostgreSQL. A server seeded like the
 * bench's (100 accounts, 50 auto items), then rounds of 64 connections of purchases; each round
 * prints req/s with CPU per purchase by process (the API, PostgreSQL's processes, this load
 * generator; from /proc), the API's write and read system calls per purchase (sockets: a kernel
 * crossing each), how busy the machine was, and the WAL a purchase writes. After the last round,
 * the WAL records by kind and relation (pg_walinspect). Rounds alternate two SQL
 * variants when COST_AB='["sql for A","sql for B"]' (run before each round), so that an A/B is
 * measured within one run: the machine's speed drifts between runs.
 * Env: BENCH_SECONDS (10), COST_ROUNDS (2), COST_CONNECTIONS (64), COST_LICENSES (3000 an item), COST_HOT=1 (every purchase of
 * one item; COST_HOT=ab: spread rounds and hot ones alternate, their difference free of the machine's drift),
 * COST_HOT_LICENSES (45000), COST_SERVER_ENV (JSON, e.g. {"DB_POOL_MAX":"8"}); COST_SERVER_ENV_B (JSON): a second server
 * with these settings takes every other round, an A/B of the API's configuration within one run.
 */
import pg from 'pg'
import {
  DB_NAME,
  api,
  cpuSeconds,
  dropDatabase,
  freePort,
  machineBusy,
  postgresCpu,
  postgresCpuSince,
  purchaseLoad,
  recreateDatabase,
  startServer,
  syscalls,
} from './harness.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const ROUNDS = Number(process.env.COST_ROUNDS ?? 2)
const CONNECTIONS = Number(process.env.COST_CONNECTIONS ?? 64)
const HOT = process.env.COST_HOT === '1'
const HOT_AB = process.env.COST_HOT === 'ab'
const SERVER_B = process.env.COST_SERVER_ENV_B ? (JSON.parse(process.env.COST_SERVER_ENV_B) as Record<string, string>) : undefined
const AB = process.env.COST_AB ? (JSON.parse(process.env.COST_AB) as [string, string]) : undefined
const LICENSES = Number(process.env.COST_LICENSES ?? 3000)
const HOT_LICENSES = Number(process.env.COST_HOT_LICENSES ?? 45000)

async function seed(base: string) {
  const keys: string[] = []
  for (let i = 0; i < 100; i++) {
    const account = await api(base, 'POST', '/resellers', { name: `cost ${i}` })
    await api(base, 'POST', `/resellers/${account.id}/balance`, { amount: 1e14, reason: 'bench' })
    keys.push(account.api_key)
  }
  const items: number[] = []
  const spread = HOT ? 0 : 50
  for (let i = 0; i < spread + (HOT || HOT_AB ? 1 : 0); i++) {
    const item = await api(base, 'POST', '/items', {
      product_name: 'Cost',
      name: `V${i}`,
      sku: `COST-${i}`,
      price: 1000 + i,
      order_process: 'auto',
    })
    const count = i === spread ? HOT_LICENSES : LICENSES
    for (let done = 0; done < count; done += 9000) {
      const licenses = Array.from(
        { length: Math.min(9000, count - done) },
        (_, n) => `COST-${i}-${done + n}-${Math.random().toString(36).slice(2)}`,
      )
      await api(base, 'POST', `/items/${item.id}/licenses`, { licenses })
    }
    items.push(item.id)
  }
  return { keys, items: items.slice(0, HOT ? 1 : spread), hot: items[spread] }
}

async function main() {
  const url = await recreateDatabase(`${DB_NAME}_cost`)
  const db = new pg.Client({ connectionString: url })
  const port = await freePort()
  const server = await startServer(url, port, JSON.parse(process.env.COST_SERVER_ENV ?? '{}') as Record<string, string>)
  const base = `http://127.0.0.1:${port}`
  const portB = SERVER_B && (await freePort())
  const serverB = portB ? await startServer(url, portB, SERVER_B) : undefined
  // Round r is served by A, or by B every other round when there is one.
  const serving = (round: number) => (serverB && round % 2 ? { server: serverB, base: `http://127.0.0.1:${portB}` } : { server, base })
  try {
    await db.connect()
    const { keys, items, hot } = await seed(base)
    // COST_HOT=ab: the B rounds buy the hot item only.
    let hotRound = false
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]
    let ref = 0
    const next = () => ({
      headers: { 'content-type': 'application/json', 'x-apikey': pick(keys) },
      body: JSON.stringify({ ref_id: `cost-${++ref}`, carts: [{ item_id: hotRound ? hot : pick(items), quantity: 1 }] }),
    })
    await purchaseLoad(base, { connections: 16, seconds: 3, next })
    if (serverB) await purchaseLoad(serving(1).base, { connections: 16, seconds: 3, next })
    const lsn = async () => (await db.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn
    let last = { from: '', to: '', purchases: 0 }
    for (let round = 0; round < ROUNDS; round++) {
      // The previous round's last answers may still hold locks that DDL in a variant would wait on.
      if (AB) await new Promise((resolve) => setTimeout(resolve, 1000)).then(() => db.query(AB[round % 2]))
      const { server: target, base: targetBase } = serving(round)
      hotRound = HOT_AB && round % 2 === 1
      const before = {
        io: syscalls(target.pid!),
        server: cpuSeconds(target.pid!),
        self: cpuSeconds(process.pid),
        postgres: postgresCpu(),
        lsn: await lsn(),
      }
      const busy = machineBusy()
      const { result } = await purchaseLoad(targetBase, { connections: CONNECTIONS, seconds: SECONDS, next })
      const machine = busy.busyPercent()
      const postgres = postgresCpuSince(before.postgres)
      const n = result.requests.total
      const us = (seconds: number) => Math.round((seconds * 1e6) / n)
      const io = syscalls(target.pid!)
      const to = await lsn()
      const wal = (await db.query<{ b: string }>('SELECT $1::pg_lsn - $2::pg_lsn AS b', [to, before.lsn])).rows[0].b
      last = { from: before.lsn, to, purchases: n }
      console.log(
        JSON.stringify({
          round: AB || serverB || HOT_AB ? (round % 2 ? 'B' : 'A') : round + 1,
          req_per_s: Math.round(result.requests.average),
          p99_ms: result.latency.p99,
          non_2xx: result.non2xx,
          api_us: us(cpuSeconds(target.pid!) - before.server),
          postgres_us: us(postgres),
          api_writes: +((io.writes - before.io.writes) / n).toFixed(2),
          api_reads: +((io.reads - before.io.reads) / n).toFixed(2),
          load_generator_us: us(cpuSeconds(process.pid) - before.self),
          machine_busy_percent: machine,
          wal_bytes: Math.round(Number(wal) / n),
        }),
      )
    }
    await walByRelation(db, last)
  } finally {
    const exited = [server, serverB].map((s) =>
      s && s.exitCode === null && s.signalCode === null ? new Promise((resolve) => s.once('exit', resolve)) : undefined,
    )
    serverB?.kill('SIGTERM')
    server.kill('SIGTERM')
    await Promise.all(exited)
    await db.end()
    await dropDatabase(`${DB_NAME}_cost`)
  }
}

/** The last round's WAL records per purchase by kind and relation, where pg_walinspect exists. */
async function walByRelation(db: pg.Client, round: { from: string; to: string; purchases: number }) {
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect')
  } catch {
    return console.log('pg_walinspect is not available: no WAL records by relation')
  }
  const { rows } = await db.query(
    `SELECT r.resource_manager || '/' || r.record_type AS record, coalesce(c.relname, '') AS relation,
            round(count(*)::numeric / $3, 2) AS per_purchase, round(sum(r.record_length + r.fpi_length)::numeric / $3) AS bytes
       FROM pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn) r
       LEFT JOIN pg_class c ON c.relfilenode = (regexp_match(r.block_ref, 'rel \\d+/\\d+/(\\d+)'))[1]::oid
      GROUP BY 1, 2 HAVING count(*)::numeric / $3 >= 0.05 ORDER BY 4 DESC`,
    [round.from, round.to, round.purchases],
  )
  console.table(rows)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
