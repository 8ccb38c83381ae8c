/** What every bench shares: a database of its own, a real server process, the operator API. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'

export const ROOT = path.resolve(import.meta.dirname, '..')
export const ADMIN = 'bench-admin-token-0123456789'
export const BASE_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
// A parallel checkout benches on its own database.
export const DB_NAME = process.env.BENCH_DB_NAME ?? 'reseller_bench'

export async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as net.AddressInfo).port
  await new Promise((resolve) => server.close(resolve))
  return port
}

export async function recreateDatabase(name = DB_NAME): Promise<string> {
  const client = new pg.Client({ connectionString: BASE_URL })
  await client.connect()
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  await client.query(`CREATE DATABASE ${name}`)
  await client.end()
  const url = new URL(BASE_URL)
  url.pathname = `/${name}`
  return url.toString()
}

/** The service as npm start runs it: built to dist/ (scripts/build.mjs), once per bench run. */
let built = false
function buildOnce() {
  if (!built) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' })
  built = true
}

// As npm start runs it: a 4 MB young-generation semi-space (V8's default grows to 16 MB) keeps RSS
// under load lower (npm run bench:memory).
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4']
// As npm run worker runs it: a worker process allocates a payload, a signature and a request per
// event, and 16 MB semi-spaces cut the share of its CPU spent collecting garbage.
export const WORKER_NODE_FLAGS = ['--max-semi-space-size=16']

// BENCH_CPU_PROF=<dir>: server processes write a V8 CPU profile there when they exit.
const CPU_PROF = process.env.BENCH_CPU_PROF

// Servers end with the bench: one stopped by a signal or a crash left its server running idle.
const servers = new Set<ChildProcess>()
const stopServers = () => servers.forEach((server) => server.kill('SIGTERM'))
process.on('exit', stopServers)
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)
  process.once(signal, () => process.exit(code))

export async function startServer(
  databaseUrl: string,
  port: number,
  extraEnv: Record<string, string> = {},
  ready = 'listening on',
  nodeArgs: string[] = extraEnv.WORKERS === 'only' ? WORKER_NODE_FLAGS : SERVER_NODE_FLAGS,
): Promise<ChildProcess> {
  const profile = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : []
  // No database URL: the embedded database in DATA_DIR.
  const { DATABASE_URL: _inherited, ...inherited } = process.env
  buildOnce()
  const child = spawn(process.execPath, [...nodeArgs, ...profile, 'dist/main.js'], {
    cwd: ROOT,
    env: {
      ...inherited,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_ENV: 'development',
      APP_KEY: 'bench-app-key-0123456789-0123456789-0123',
      ADMIN_TOKEN: ADMIN,
      DATA_DIR: fs.mkdtempSync('/tmp/reseller-bench-'),
      SEED_DEMO: 'false',
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      WORKERS: 'false',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  servers.add(child)
  child.once('exit', () => servers.delete(child))
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes(ready) && resolve())
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)))
  })
  return child
}

export async function api(base: string, method: string, url: string, body?: object) {
  const res = await fetch(`${base}/api/admin/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  })
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { data: any }).data
}

export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024)
}

/** CPU seconds (user + system) a process has used so far; throws once it is gone. */
export function cpuSeconds(pid: number | string): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** Read and write system calls a process has made (/proc/<pid>/io): sockets count, each a kernel crossing. */
export function syscalls(pid: number | string): { reads: number; writes: number } {
  const io = fs.readFileSync(`/proc/${pid}/io`, 'utf8')
  const field = (name: string) => Number(io.match(new RegExp(`^${name}: (\\d+)`, 'm'))?.[1] ?? NaN)
  return { reads: field('syscr'), writes: field('syscw') }
}

/** CPU seconds of every PostgreSQL process on this machine (backends, WAL writer, checkpointer) by pid. */
export function postgresCpu(): Map<string, number> {
  const cpu = new Map<string, number>()
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('postgres')) cpu.set(pid, cpuSeconds(pid))
    } catch {
      // gone meanwhile
    }
  }
  return cpu
}

/** CPU seconds PostgreSQL's processes used since `before` (processes that ended meanwhile are missed). */
export function postgresCpuSince(before: Map<string, number>): number {
  let total = 0
  for (const [pid, seconds] of postgresCpu()) total += seconds - (before.get(pid) ?? 0)
  return total
}

/**
 * Starts a reading of how busy the whole machine is (`/proc/stat`); `busyPercent()` answers for
 * the time since, in percent of one core (200 = both cores of this machine full). A phase that
 * reads near the core count measured the machine as much as the service.
 */
export function machineBusy(): { busyPercent(): number } {
  const read = () => {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
    // user nice system idle iowait irq softirq steal: idle and iowait are the idle part.
    return { idle: f[3] + f[4], total: f.slice(0, 8).reduce((a, b) => a + b, 0) }
  }
  const start = read()
  const cores = os.availableParallelism()
  return {
    busyPercent() {
      const now = read()
      const total = now.total - start.total
      return total > 0 ? Math.round((1 - (now.idle - start.idle) / total) * cores * 100) : 0
    },
  }
}

/** Writes PostgreSQL's dirty pages now, not during the next phase's figures. */
export async function checkpoint(): Promise<void> {
  const client = new pg.Client({ connectionString: BASE_URL })
  await client.connect()
  await client.query('CHECKPOINT')
  await client.end()
}

export async function dropDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: BASE_URL })
  await client.connect()
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  await client.end()
}

export type PurchaseRequest = { headers: Record<string, string>; body: string }

/** Autocannon on POST /api/v1/trx (`next` makes each request), the server's RSS sampled through the load, not after it. */
export async function purchaseLoad(
  base: string,
  o: { connections: number; seconds: number; next: () => PurchaseRequest; pid?: number },
): Promise<{ result: autocannon.Result; peakRssMb: number; machineBusyPercent: number }> {
  let peakRssMb = 0
  const sampler = o.pid ? setInterval(() => (peakRssMb = Math.max(peakRssMb, rssMb(o.pid!))), 200) : undefined
  try {
    const busy = machineBusy()
    const result = await autocannon({
      url: base,
      connections: o.connections,
      duration: o.seconds,
      requests: [{ method: 'POST', path: '/api/v1/trx', setupRequest: (request: any) => ({ ...request, ...o.next() }) }],
    })
    return { result, peakRssMb, machineBusyPercent: busy.busyPercent() }
  } finally {
    clearInterval(sampler)
  }
}

// BENCH_STATEMENTS=<file>: a drain's statements from pg_stat_statements (the server must preload it), heaviest first.
const STATEMENTS_FILE = process.env.BENCH_STATEMENTS

/** Starts the statement counts afresh when BENCH_STATEMENTS asks for them. */
export async function resetStatements(db: pg.Client) {
  if (STATEMENTS_FILE) await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset()')
}

/** Writes the heaviest statements since resetStatements to BENCH_STATEMENTS (plus `suffix`: a phase's own file), one JSON line each. */
export async function writeStatements(db: pg.Client, suffix = '') {
  if (!STATEMENTS_FILE) return
  const { rows } = await db.query(`
    SELECT calls, round(total_exec_time::numeric, 1) AS ms, round((total_exec_time / calls)::numeric, 3) AS ms_per_call, rows,
           shared_blks_hit + shared_blks_read AS blocks, wal_records, left(regexp_replace(query, '\\s+', ' ', 'g'), 400) AS query
      FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
     ORDER BY total_exec_time DESC LIMIT 40`)
  fs.writeFileSync(STATEMENTS_FILE + suffix, rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
}

export type BackendsCpu = { clientSeconds: number; autovacuumSeconds: number }

/**
 * The CPU of a database's backends over a stretch, split by backend type (client backends apart from
 * autovacuum workers, which clean up after earlier phases too; not the bench's own). Sampled every 200 ms, so backends
 * that start and end within the stretch are counted (a before/after reading misses them).
 */
export function watchDatabaseBackends(db: pg.Client) {
  const seen = new Map<number, { type: string; first: number; last: number }>()
  const sample = async () => {
    const { rows } = await db.query<{ pid: number; type: string }>(
      'SELECT pid, backend_type AS type FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    )
    for (const { pid, type } of rows) {
      try {
        const now = cpuSeconds(pid)
        const entry = seen.get(pid)
        if (entry) entry.last = now
        else seen.set(pid, { type, first: started ? 0 : now, last: now })
      } catch {
        // gone meanwhile
      }
    }
  }
  let started = false
  let sampling: Promise<unknown> = sample().then(() => (started = true))
  // Unref'd: a phase that throws before stop() must not keep the bench alive.
  const timer = setInterval(() => (sampling = sampling.then(sample, sample)), 200).unref()
  return {
    async stop(): Promise<BackendsCpu> {
      clearInterval(timer)
      await sampling
      await sample()
      let clientSeconds = 0
      let autovacuumSeconds = 0
      for (const { type, first, last } of seen.values()) {
        if (type === 'autovacuum worker') autovacuumSeconds += last - first
        else clientSeconds += last - first
      }
      return { clientSeconds, autovacuumSeconds }
    },
  }
}

/** A watch's reading over a phase of `seconds`, in percent of one core: the clients' and autovacuum's apart. */
export const backendsPercent = (cpu: BackendsCpu, seconds: number) => ({
  postgres_cpu_percent: Math.round((cpu.clientSeconds / seconds) * 100),
  autovacuum_cpu_percent: Math.round((cpu.autovacuumSeconds / seconds) * 100),
})

/** A watch's reading in milliseconds of CPU: the clients' and autovacuum's apart. */
export const backendsMs = (cpu: BackendsCpu) => ({
  postgres_cpu_ms: Math.round(cpu.clientSeconds * 1000),
  autovacuum_cpu_ms: Math.round(cpu.autovacuumSeconds * 1000),
})
