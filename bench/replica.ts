/**
 * The replica phase (BENCH_ONLY=replica, and in npm run bench): does a streaming replica carry the
 * read load? A private primary and a pg_basebackup -R replica of it (test/private-postgres.ts, the
 * drills' clusters), a seeded catalog and a reseller with orders; then each replica-served route and
 * one that stays on the primary, first from a server with DATABASE_URL alone, then from one with
 * DATABASE_READ_URL. The figure: the primary's PostgreSQL CPU per request (its postmaster and every
 * child, from /proc), which should fall to about nothing for the routes a replica serves.
 */
import autocannon from 'autocannon'
import { binDir, startPrivateCluster, startReplica, type PrivateCluster } from '../test/private-postgres.js'
import { ADMIN, api, cpuSeconds, freePort, startServer } from './harness.js'

export type ReplicaRow = {
  route: string
  /** `primary`: DATABASE_URL alone; `replica`: with DATABASE_READ_URL. */
  reads_from: 'primary' | 'replica'
  req_per_s: number
  p99_ms: number
  non_2xx: number
  primary_cpu_us_per_req: number
  replica_cpu_us_per_req: number
  /** Lag-tolerant reads the server sent to the replica (db_reads_total), per request. */
  replica_reads_per_req: number
}

export type ReplicaReport = { seconds: number; rows: ReplicaRow[] } | { skipped: string }

const CONNECTIONS = 32
const PRODUCTS = 10
const VARIANTS = 4
const ORDERS = 20

/** CPU seconds of a cluster's processes by pid. */
function clusterCpu(cluster: PrivateCluster): Map<number, number> {
  const cpu = new Map<number, number>()
  for (const pid of cluster.pids()) {
    try {
      cpu.set(pid, cpuSeconds(pid))
    } catch {
      // exited meanwhile
    }
  }
  return cpu
}

/** What the cluster's processes used since `before` (a backend that ended meanwhile is missed; the pools keep theirs). */
function clusterCpuSince(cluster: PrivateCluster, before: Map<number, number>): number {
  let total = 0
  for (const [pid, seconds] of clusterCpu(cluster)) total += seconds - (before.get(pid) ?? 0)
  return total
}

async function replicaReads(base: string, pool: string): Promise<number> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })
  const line = (await res.text()).split('\n').find((l) => l.startsWith(`db_reads_total{pool="${pool}"}`))
  return line ? Number(line.split(' ').pop()) : 0
}

async function reseller(base: string, key: string, method: string, url: string, body?: object) {
  const res = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { 'x-apikey': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`)
  return (await res.json()) as any
}

/** A catalog of 40 variants, a reseller with 20 orders; answers its key, its refs and a delta cursor from before the orders. */
async function seed(base: string) {
  const admin = (m: string, u: string, b?: object) => api(base, m, u, b)
  const items: number[] = []
  for (let p = 0; p < PRODUCTS; p++)
    for (let v = 0; v < VARIANTS; v++) {
      const item = await admin('POST', '/items', {
        product_name: `Replica Product ${p}`,
        category: `Replica Category ${p % 3}`,
        name: `Variant ${p}-${v}`,
        sku: `REPL-${p}-${v}`,
        price: 5000 + p * 100 + v,
        order_process: 'auto',
      })
      await admin('POST', `/items/${item.id}/licenses`, {
        licenses: Array.from({ length: 5 }, (_, n) => `REPL-${p}-${v}-${n}-${Math.random().toString(36).slice(2)}`),
      })
      items.push(item.id)
    }
  const account = await admin('POST', '/resellers', { name: 'replica bench' })
  await admin('POST', `/resellers/${account.id}/balance`, { amount: 1e12, reason: 'bench' })
  const key: string = account.api_key
  const since = (await reseller(base, key, 'GET', '/item?per_page=all')).server_time as string
  const refs: string[] = []
  for (let i = 0; i < ORDERS; i++) {
    refs.push(`replica-${process.pid}-${i}`)
    await reseller(base, key, 'POST', '/trx', { ref_id: refs[i], carts: [{ item_id: items[(i * 3) % items.length], quantity: 1 }] })
  }
  return { key, refs, since }
}

export async function replicaBench(seconds: number): Promise<ReplicaReport> {
  if (!binDir()) return { skipped: 'no PostgreSQL server binaries under /usr/lib/postgresql (initdb, pg_basebackup, pg_ctl)' }
  console.log('replica: a private primary …')
  const primary = await startPrivateCluster()
  let replica: PrivateCluster | undefined
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  try {
    // The first server migrates the primary; the seed goes in before the base backup, so the replica starts with it.
    let server = await startServer(primary.url, port)
    const { key, refs, since } = await seed(base)
    server.kill('SIGTERM')
    await new Promise((resolve) => server.once('exit', resolve))
    console.log('replica: pg_basebackup -R …')
    replica = await startReplica(primary)
    const replicaName = `127.0.0.1:${new URL(replica.url).port}/postgres`
    let n = 0
    const routes: [string, () => string, boolean][] = [
      ['GET /api/v1/item?per_page=all', () => '/api/v1/item?per_page=all', true],
      ['GET /api/v1/item?updated_since (delta)', () => `/api/v1/item?per_page=all&updated_since=${encodeURIComponent(since)}`, true],
      ['GET /api/v1/trx?per_page=20', () => '/api/v1/trx?per_page=20', true],
      ['GET /api/v1/balance/mutations', () => '/api/v1/balance/mutations', true],
      ['GET /api/v1/trx/{ref} (always the primary)', () => `/api/v1/trx/${refs[n++ % refs.length]}`, false],
    ]
    const rows: ReplicaRow[] = []
    for (const readsFrom of ['primary', 'replica'] as const) {
      server = await startServer(primary.url, port, readsFrom === 'replica' ? { DATABASE_READ_URL: replica.url } : {})
      try {
        for (const [route, path] of routes) {
          console.log(`replica: ${route}, reads from the ${readsFrom} …`)
          const before = { primary: clusterCpu(primary), replica: clusterCpu(replica), reads: await replicaReads(base, replicaName) }
          const result = await autocannon({
            url: base,
            connections: CONNECTIONS,
            duration: seconds,
            requests: [{ method: 'GET', setupRequest: (r: any) => ({ ...r, path: path(), headers: { 'x-apikey': key } }) }],
          })
          const total = Math.max(1, result.requests.total)
          const perRequest = (cpu: number) => Math.round((cpu * 1e6) / total)
          rows.push({
            route,
            reads_from: readsFrom,
            req_per_s: Math.round(result.requests.average),
            p99_ms: result.latency.p99,
            non_2xx: result.non2xx,
            primary_cpu_us_per_req: perRequest(clusterCpuSince(primary, before.primary)),
            replica_cpu_us_per_req: perRequest(clusterCpuSince(replica, before.replica)),
            replica_reads_per_req: Number((((await replicaReads(base, replicaName)) - before.reads) / total).toFixed(2)),
          })
        }
      } finally {
        server.kill('SIGTERM')
        await new Promise((resolve) => server.once('exit', resolve))
      }
    }
    console.table(rows)
    return { seconds, rows }
  } finally {
    await replica?.destroy()
    await primary.destroy()
  }
}
