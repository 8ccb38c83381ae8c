/**
 * The webhook part of npm run bench: a receiver on 127.0.0.1 that answers 200 at once, every
 * account subscribed, and a separate worker process (WORKERS=only) beside the API process.
 * Measures the delay from a purchase's answer (its commit is just before) to the first attempt's
 * arrival at the half-throughput rate, and how many events a worker delivers per second from a
 * backlog.
 */
import type { ChildProcess } from 'node:child_process'
import pg from 'pg'
import { backendsPercent, cpuSeconds, machineBusy, resetStatements, rssMb, watchDatabaseBackends, writeStatements } from './harness.js'
import { pacedLoad } from './paced.js'
import { startReceiver } from './receiver.js'
import { startStallProbe } from './stall-probe.js'

type Request = () => { path: string; headers: Record<string, string>; body: string }

export type WebhookBenchDeps = {
  base: string
  databaseUrl: string
  keys: string[]
  rate: number
  seconds: number
  request: Request
  startWorker: () => Promise<ChildProcess>
  /** The API process: its CPU during the load is reported beside the worker's and PostgreSQL's. */
  serverPid: number
  /** Purchases at full speed for a while (the backlog). */
  burst: () => Promise<{ requests: number }>
}

const cpuTotal = (u: NodeJS.CpuUsage) => u.user + u.system

// Seconds at the phase's rate before it is measured (see latencyAt).
const WARMUP_SECONDS = 3

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
}

export async function webhookBench(deps: WebhookBenchDeps) {
  const db = new pg.Client({ connectionString: deps.databaseUrl })
  await db.connect()
  const count = async (sql: string) => Number((await db.query(sql)).rows[0].n)
  const hook = await startReceiver()
  const probe = startStallProbe()
  const url = hook.url
  let worker = await deps.startWorker()

  /** Purchases at `rate` for `seconds`; the delay from each answer to each of its events' arrival. */
  const delaysAt = async (rate: number, seconds: number) => {
    const answered = new Map<string, number>()
    const arrivedBefore = hook.count()
    const cpuBefore = cpuSeconds(worker.pid!)
    const apiBefore = cpuSeconds(deps.serverPid)
    // This process: the load generator and the receiver's thread.
    const benchBefore = process.cpuUsage()
    const postgres = watchDatabaseBackends(db)
    const busy = machineBusy()
    probe.reset()
    const started = performance.now()
    const load = await pacedLoad({
      base: deps.base,
      rate,
      seconds,
      request: deps.request,
      answered: (body, at) => answered.set((JSON.parse(body) as { ref_id: string }).ref_id, at),
    })
    const loadSeconds = (performance.now() - started) / 1000
    const during = {
      delivered_per_s: Math.round((hook.count() - arrivedBefore) / loadSeconds),
      worker_cpu_percent: Math.round(((cpuSeconds(worker.pid!) - cpuBefore) / loadSeconds) * 100),
      api_cpu_percent: Math.round(((cpuSeconds(deps.serverPid) - apiBefore) / loadSeconds) * 100),
      bench_cpu_percent: Math.round((cpuTotal(process.cpuUsage(benchBefore)) / 1e6 / loadSeconds) * 100),
      ...backendsPercent(await postgres.stop(), loadSeconds),
      machine_busy_percent: busy.busyPercent(),
      stall: await probe.read(),
    }
    const arrived = (ref: string, event: string) => hook.arrivals.get(`${ref}|${event}`)
    await waitUntil(
      () => [...answered.keys()].every((ref) => arrived(ref, 'order.completed') !== undefined && arrived(ref, 'order.paid') !== undefined),
      60_000,
    )
    await hook.flush()
    const delays: number[] = []
    for (const [ref, at] of answered) {
      for (const event of ['order.paid', 'order.completed']) {
        const when = arrived(ref, event)
        if (when !== undefined) delays.push(Math.max(0, when - at))
      }
    }
    if (process.env.BENCH_TRACE) {
      const bySecond = new Map<number, number[]>()
      for (const [ref, at] of answered) {
        const when = arrived(ref, 'order.completed')
        if (when === undefined) continue
        const second = Math.floor((at - started) / 1000)
        bySecond.set(second, [...(bySecond.get(second) ?? []), when - at])
      }
      for (const [second, ds] of [...bySecond].sort((a, b) => a[0] - b[0])) {
        ds.sort((a, b) => a - b)
        console.log(`second ${second}: n=${ds.length} p50=${ds[ds.length >> 1].toFixed(0)} max=${ds.at(-1)!.toFixed(0)}`)
      }
    }
    delays.sort((a, b) => a - b)
    const q = (p: number) => Number((delays[Math.min(delays.length - 1, Math.floor(p * delays.length))] ?? 0).toFixed(1))
    return { load, during, expected: answered.size * 2, arrived: delays.length, p50: q(0.5), p99: q(0.99), max: q(1) }
  }

  /** Every event relayed and every attempt recorded: what a phase leaves is not the next one's load. */
  const settled = () =>
    waitUntil(
      async () =>
        (await count(
          `SELECT (SELECT count(*) FROM outbox_events) + (SELECT count(*) FROM webhook_deliveries WHERE status IN ('pending', 'retrying')) AS n`,
        )) === 0,
      60_000,
    )

  /**
   * The measured phase at `rate`, after WARMUP_SECONDS at the same rate and once the warm-up's
   * deliveries are all recorded. The warm-up's own figures stay in the report.
   */
  const latencyAt = async (rate: number) => {
    console.log(`webhook latency at ${rate} purchases/s (${WARMUP_SECONDS} s warm-up) …`)
    const warmup = await delaysAt(rate, WARMUP_SECONDS)
    await settled()
    const since = new Date()
    const m = await delaysAt(rate, deps.seconds)
    const attempts = (
      await db.query(
        `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY duration_ms) AS p99 FROM webhook_deliveries, jsonb_to_recordset(attempts) AS a(attempted_at timestamptz, duration_ms int) WHERE a.attempted_at >= $1`,
        [since],
      )
    ).rows[0]
    return {
      rate,
      purchases_per_s: m.load.req_per_s,
      purchases_refused: m.load.non_2xx + m.load.errors,
      events_expected: m.expected,
      events_arrived: m.arrived,
      delivered_per_s_during_load: m.during.delivered_per_s,
      worker_cpu_percent_during_load: m.during.worker_cpu_percent,
      api_cpu_percent_during_load: m.during.api_cpu_percent,
      bench_cpu_percent_during_load: m.during.bench_cpu_percent,
      postgres_cpu_percent_during_load: m.during.postgres_cpu_percent,
      autovacuum_cpu_percent_during_load: m.during.autovacuum_cpu_percent,
      machine_busy_percent_during_load: m.during.machine_busy_percent,
      // The same seconds seen from outside the worker: purchases' own answers, and an idle process's wake-ups.
      purchase_answer_p99_ms: m.load.p99_ms,
      idle_probe_late_p99_ms: m.during.stall.p99_ms,
      idle_probe_late_max_ms: m.during.stall.max_ms,
      commit_to_arrival_p50_ms: m.p50,
      commit_to_arrival_p99_ms: m.p99,
      commit_to_arrival_max_ms: m.max,
      receiver_answer_p50_ms: Number(attempts.p50),
      receiver_answer_p99_ms: Number(attempts.p99),
      warmup: { seconds: WARMUP_SECONDS, commit_to_arrival_p50_ms: warmup.p50, commit_to_arrival_p99_ms: warmup.p99, max_ms: warmup.max },
    }
  }

  try {
    // The earlier phases' events belong to accounts without webhooks: let the worker retire them first.
    await waitUntil(async () => (await count('SELECT count(*) AS n FROM outbox_events')) === 0, 120_000)
    // The earlier phases' dirty pages are written now, not during these figures (as before the embedded phase).
    await db.query('CHECKPOINT')
    for (const key of deps.keys) {
      const headers = { 'x-apikey': key, 'content-type': 'application/json' }
      await fetch(`${deps.base}/api/v1/webhook/secret`, { method: 'POST', headers: { 'x-apikey': key } })
      await fetch(`${deps.base}/api/v1/webhook`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ callback_url: url, webhook_enabled: true }),
      })
    }

    // At a quarter of the half-throughput purchase rate, then at that rate. The quarter rate's warm-up
    // takes a new worker's first sends (its code not yet compiled hot), so they do not weigh on the half rate.
    const latencyAtQuarterRate = await latencyAt(Math.max(1, Math.round(deps.rate / 4)))
    const latency = await latencyAt(deps.rate)

    console.log('webhook delivery throughput from a backlog …')
    worker.kill('SIGTERM')
    await new Promise((resolve) => worker.once('exit', resolve))
    await deps.burst()
    const backlog = await count('SELECT coalesce(sum(cardinality(events)), 0) AS n FROM outbox_events')
    const before = hook.count()
    worker = await deps.startWorker()
    const drainCpuBefore = cpuSeconds(worker.pid!)
    await resetStatements(db)
    const drainPostgres = watchDatabaseBackends(db)
    let workerPeakRss = 0
    const sampler = setInterval(() => (workerPeakRss = Math.max(workerPeakRss, rssMb(worker.pid!))), 200)
    await waitUntil(() => hook.count() - before >= backlog, 300_000)
    clearInterval(sampler)
    await writeStatements(db)
    await hook.flush()
    const drained = hook.count() - before
    // CPU per event holds up better than events/s when other work shares the cores.
    const workerCpuMs = ((cpuSeconds(worker.pid!) - drainCpuBefore) * 1000) / drained
    const postgresCpu = await drainPostgres.stop()
    const postgresCpuMs = (postgresCpu.clientSeconds * 1000) / drained
    // From the first arrival to the last: the worker's start-up is not delivery time.
    const seconds = (hook.times.at(-1)! - hook.times[before]) / 1000
    const throughput = {
      backlog_events: backlog,
      delivered: drained,
      seconds: Number(seconds.toFixed(1)),
      events_per_s: Math.round(drained / seconds),
      worker_cpu_ms_per_event: Number(workerCpuMs.toFixed(3)),
      postgres_cpu_ms_per_event: Number(postgresCpuMs.toFixed(3)),
      // Autovacuum's share apart: it also cleans up after the earlier phases' purchases.
      autovacuum_cpu_ms_per_event: Number(((postgresCpu.autovacuumSeconds * 1000) / drained).toFixed(3)),
      worker_peak_rss_mb: workerPeakRss,
    }
    return { latency, latency_at_quarter_rate: latencyAtQuarterRate, throughput }
  } finally {
    worker.kill('SIGTERM')
    probe.stop()
    await hook.close()
    await db.end()
  }
}
