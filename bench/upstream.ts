/**
 * The upstream part of npm run bench: h2h purchases against a fake Digiflazz on 127.0.0.1
 * (bench/fake-digiflazz.ts, its own thread) that answers every request after 200 ms, with the
 * upstream worker in a process of its own (WORKERS=only) beside the API process. Three figures:
 *
 * - backlog drain: h2h purchases made while no worker runs, the provider switched off, a worker
 *   started, the provider switched on: upstream requests per second until every dispatch is
 *   `completed`;
 * - at half the purchase rate: paced h2h purchases; the backlog (dispatches not yet sent) when the
 *   load ends and how long it takes to go, and the delay from each purchase's answer (its commit is
 *   just before) to its request's arrival at the provider;
 * - at a quarter of the purchase rate: the same delay.
 *
 * It seeds its own provider, item and accounts (no webhooks: the other phases' accounts may have
 * them on), so it runs alone on a bare database or after the other phases.
 */
import type { ChildProcess } from 'node:child_process'
import http from 'node:http'
import pg from 'pg'
import { backendsPercent, cpuSeconds, machineBusy, resetStatements, rssMb, watchDatabaseBackends, writeStatements } from './harness.js'
import { startFakeDigiflazz } from './fake-digiflazz.js'
import { pacedLoad } from './paced.js'
import { startStallProbe } from './stall-probe.js'

export type UpstreamBenchDeps = {
  base: string
  databaseUrl: string
  /** The purchase rate the machine showed (or BENCH_RATE): the phases run at its half and its quarter. */
  purchaseRate: number
  seconds: number
  /** A worker process (WORKERS=only) on the same database. */
  startWorker: () => Promise<ChildProcess>
  /** The operator API. */
  admin: (method: string, url: string, body?: object) => Promise<any>
}

// The fake provider: every request answered after this long.
const PROVIDER_DELAY_MS = 200
// The backlog: this many purchases, or what BACKLOG_MAX_SECONDS of purchases at full speed give.
const BACKLOG = Number(process.env.BENCH_UPSTREAM_BACKLOG ?? 3000)
const BACKLOG_MAX_SECONDS = 10
const BACKLOG_CONNECTIONS = 64
// Provider hosts the purchases spread over (each its own UPSTREAM_PER_HOST budget); 1 is the setting.
const HOSTS = Math.max(1, Number(process.env.BENCH_UPSTREAM_HOSTS ?? 1))
const ACCOUNTS = 20
// Every wait of the phase ends by itself: a worker that never sends leaves a null figure, not a hung bench.
const DRAIN_TIMEOUT_MS = 120_000
const SETTLE_TIMEOUT_MS = 60_000
const ALL_SENT_TIMEOUT_MS = 120_000

/** Polls `check` every 50 ms until it holds or `timeoutMs` passes; answers whether it held. */
async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await check()) return true
    if (Date.now() >= deadline) return false
    await new Promise((r) => setTimeout(r, 50))
  }
}

const quantile = (sorted: number[], q: number) =>
  Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1))

/** One POST, its status code (0: no answer). */
function post(agent: http.Agent, url: URL, request: { path: string; headers: Record<string, string>; body: string }) {
  return new Promise<number>((resolve) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: request.path,
        method: 'POST',
        agent,
        headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', () => resolve(0))
    req.end(request.body)
  })
}

export async function upstreamBench(deps: UpstreamBenchDeps) {
  const db = new pg.Client({ connectionString: deps.databaseUrl })
  await db.connect()
  const count = async (sql: string) => Number((await db.query(sql)).rows[0].n)
  const provider = await startFakeDigiflazz({ delayMs: PROVIDER_DELAY_MS, hosts: HOSTS })
  const probe = startStallProbe()
  let worker: ChildProcess | undefined

  try {
    console.log(`upstream: a fake provider on ${provider.urls.join(', ')} answering in ${PROVIDER_DELAY_MS} ms; seeding …`)
    const codes = provider.urls.map((_, i) => `bench-up-${i}`)
    const items: number[] = []
    for (const [i, code] of codes.entries()) {
      await deps.admin('POST', '/providers', {
        code,
        kind: 'digiflazz',
        base_url: provider.urls[i],
        username: 'bench',
        api_key: 'bench-key',
      })
      const item = await deps.admin('POST', '/items', {
        product_name: 'Bench Pulsa',
        name: `Pulsa 10k via ${code}`,
        sku: `BENCH-UP-${i}`,
        price: 1000,
        order_process: 'h2h',
        provider: code,
        provider_code: `PULSA10-${i}`,
        unlimited_stock: true,
      })
      items.push(item.id)
    }
    const keys: string[] = []
    for (let i = 0; i < ACCOUNTS; i++) {
      const account = await deps.admin('POST', '/resellers', { name: `bench upstream ${i}` })
      await deps.admin('POST', `/resellers/${account.id}/balance`, { amount: 1e14, reason: 'bench' })
      keys.push(account.api_key)
    }
    const switchProviders = async (active: boolean) => {
      for (const code of codes) await deps.admin('PATCH', `/providers/${code}`, { active })
    }

    let counter = 0
    /** One h2h purchase of one line, a unique ref_id, the customer number in the note. */
    const request = () => {
      const n = ++counter
      const body = JSON.stringify({
        ref_id: `up-${process.pid}-${n}`,
        carts: [{ item_id: items[n % items.length], quantity: 1, note: `0812${String(n).padStart(8, '0')}` }],
      })
      return { path: '/api/v1/trx', headers: { 'content-type': 'application/json', 'x-apikey': keys[n % keys.length] }, body }
    }
    const notCompleted = () => count(`SELECT count(*) AS n FROM dispatches WHERE status <> 'completed'`)

    // 1. Backlog drain. Switched off, a provider's items are not sold (PRODUCT_TEMPORARILY_UNAVAILABLE),
    // so the backlog is made while no worker runs (the API process runs none), as the webhook phase
    // makes its own; the provider is switched off before a worker starts and on once it runs, so the
    // drain is timed on a running worker from the operator's switch.
    console.log(`upstream backlog: ${BACKLOG} h2h purchases (at most ${BACKLOG_MAX_SECONDS} s), no worker running …`)
    const agent = new http.Agent({ keepAlive: true, maxSockets: BACKLOG_CONNECTIONS })
    const url = new URL(deps.base)
    const burstEnds = performance.now() + BACKLOG_MAX_SECONDS * 1000
    let started = 0
    let accepted = 0
    let refused = 0
    const burstStarted = performance.now()
    await Promise.all(
      Array.from({ length: BACKLOG_CONNECTIONS }, async () => {
        while (started < BACKLOG && performance.now() < burstEnds) {
          started++
          const code = await post(agent, url, request())
          if (code >= 200 && code < 300) accepted++
          else refused++
        }
      }),
    )
    agent.destroy()
    const burstSeconds = (performance.now() - burstStarted) / 1000
    const backlog = await notCompleted()
    await switchProviders(false)
    worker = await deps.startWorker()
    const drainWorker = worker
    // The worker's errors (pino lines on its stdout, which the harness reads only for readiness): a
    // request whose answer failed to record is sent again when due, and shows as a repeat.
    const workerErrors = new Map<string, number>()
    let partial = ''
    drainWorker.stdout?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n')
      partial = lines.pop()!
      for (const line of lines) {
        if (!line.startsWith('{')) continue
        try {
          const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } }
          if ((entry.level ?? 0) < 50) continue
          const key = `${entry.msg ?? ''}: ${entry.err?.message ?? ''}`.slice(0, 200)
          workerErrors.set(key, (workerErrors.get(key) ?? 0) + 1)
        } catch {
          // not a log line
        }
      }
    })
    // The worker's first passes (nothing due for a switched-off provider) are not the drain.
    await new Promise((r) => setTimeout(r, 1_000))
    const arrivedBefore = provider.count()
    const workerCpuBefore = cpuSeconds(drainWorker.pid!)
    const drainPostgres = watchDatabaseBackends(db)
    const drainBusy = machineBusy()
    provider.resetPeak()
    let workerPeakRss = 0
    // Requests open at the provider, sampled: with a 200 ms provider, slots held longer are held by the worker itself.
    let openSum = 0
    let openSamples = 0
    const sampler = setInterval(() => {
      // From the first request on: the worker's wait for the switch is not the drain.
      if (provider.count() > arrivedBefore) {
        openSum += provider.open()
        openSamples++
      }
      try {
        workerPeakRss = Math.max(workerPeakRss, rssMb(drainWorker.pid!))
      } catch {
        // gone
      }
    }, 200)
    console.log(`upstream backlog drain: ${backlog} dispatches, provider switched on …`)
    await resetStatements(db)
    const switchedOn = performance.now()
    await switchProviders(true)
    const drained = await waitUntil(async () => (await notCompleted()) === 0, DRAIN_TIMEOUT_MS)
    await writeStatements(db)
    const completedAt = performance.now()
    clearInterval(sampler)
    const postgresCpu = await drainPostgres.stop()
    await provider.flush()
    const sent = provider.count() - arrivedBefore
    const firstArrival = provider.times[arrivedBefore]
    const lastArrival = provider.times.at(-1)
    const drainSeconds = firstArrival === undefined ? null : (completedAt - firstArrival) / 1000
    const drain = {
      purchases: accepted,
      purchases_refused: refused,
      purchase_seconds: Number(burstSeconds.toFixed(1)),
      purchases_per_s: Math.round(accepted / burstSeconds),
      backlog_dispatches: backlog,
      requests_sent: sent,
      all_completed: drained,
      left_not_completed: drained ? 0 : await notCompleted(),
      first_request_after_switch_on_ms: firstArrival === undefined ? null : Math.round(firstArrival - switchedOn),
      // From the first request's arrival to the moment every dispatch read `completed` (polled every 50 ms).
      seconds: drainSeconds === null ? null : Number(drainSeconds.toFixed(2)),
      requests_per_s: drained && drainSeconds ? Math.round(backlog / drainSeconds) : null,
      // From the first arrival to the last: what the provider saw.
      arrivals_per_s:
        firstArrival !== undefined && lastArrival !== undefined && lastArrival > firstArrival
          ? Math.round((sent - 1) / ((lastArrival - firstArrival) / 1000))
          : null,
      peak_in_flight_at_provider: provider.peakOpen(),
      mean_in_flight_at_provider: openSamples ? Number((openSum / openSamples).toFixed(1)) : null,
      worker_cpu_ms_per_request: sent ? Number((((cpuSeconds(drainWorker.pid!) - workerCpuBefore) * 1000) / sent).toFixed(3)) : null,
      postgres_cpu_ms_per_request: sent ? Number(((postgresCpu.clientSeconds * 1000) / sent).toFixed(3)) : null,
      // Autovacuum's share apart: it also cleans up after the earlier phases' purchases.
      autovacuum_cpu_ms_per_request: sent ? Number(((postgresCpu.autovacuumSeconds * 1000) / sent).toFixed(3)) : null,
      machine_busy_percent: drainBusy.busyPercent(),
      worker_peak_rss_mb: workerPeakRss,
    }
    console.log(`  ${drain.requests_per_s ?? '—'} requests/s (${backlog} in ${drain.seconds ?? '—'} s)`)

    /** Purchases at `rate` for `seconds`: what is left unsent when they end, and the delay from each answer to its request. */
    const delaysAt = async (rate: number) => {
      // What the last phase left is not this one's load.
      await waitUntil(async () => (await notCompleted()) === 0, SETTLE_TIMEOUT_MS)
      const leftBefore = await notCompleted()
      const answered = new Map<string, number>()
      const arrivedBefore = provider.count()
      const workerBefore = cpuSeconds(worker!.pid!)
      const postgres = watchDatabaseBackends(db)
      const busy = machineBusy()
      provider.resetPeak()
      probe.reset()
      await resetStatements(db)
      const started = performance.now()
      const load = await pacedLoad({
        base: deps.base,
        rate,
        seconds: deps.seconds,
        request,
        answered: (body, at) => answered.set((JSON.parse(body) as { ref_id: string }).ref_id, at),
      })
      const ended = performance.now()
      const loadSeconds = (ended - started) / 1000
      // One request per purchase: what has not arrived is not sent yet (or on its way).
      const notArrived = answered.size - (provider.count() - arrivedBefore)
      const queued = await count(`SELECT count(*) AS n FROM dispatches WHERE status = 'queued'`)
      const during = {
        sent_per_s: Math.round((provider.count() - arrivedBefore) / loadSeconds),
        peak_in_flight_at_provider: provider.peakOpen(),
        worker_cpu_percent: Math.round(((cpuSeconds(worker!.pid!) - workerBefore) / loadSeconds) * 100),
        ...backendsPercent(await postgres.stop(), loadSeconds),
        machine_busy_percent: busy.busyPercent(),
        stall: await probe.read(),
      }
      const allSent = await waitUntil(() => provider.count() - arrivedBefore >= answered.size, ALL_SENT_TIMEOUT_MS)
      const allSentAfterMs = allSent ? Math.max(0, Math.round(performance.now() - ended)) : null
      // The load's statements and its requests', beside the drain's file.
      await writeStatements(db, `.rate-${rate}`)
      await provider.flush()
      const { rows } = await db.query<{ ref_id: string; upstream_ref: string }>(
        'SELECT o.ref_id, d.upstream_ref FROM dispatches d JOIN orders o ON o.id = d.order_id WHERE o.ref_id = ANY ($1::text[])',
        [[...answered.keys()]],
      )
      const delays: number[] = []
      for (const { ref_id, upstream_ref } of rows) {
        const arrived = provider.arrivals.get(upstream_ref)
        // A request can beat the purchase's answer to the load generator: no negative delays.
        if (arrived !== undefined) delays.push(Math.max(0, arrived - answered.get(ref_id)!))
      }
      delays.sort((a, b) => a - b)
      return {
        rate,
        purchases_per_s: load.req_per_s,
        purchases_refused: load.non_2xx + load.errors,
        purchase_answer_p99_ms: load.p99_ms,
        // Dispatches of the phase before still open when this one began (its waits are bounded): 0 unless that one fell behind.
        left_from_before: leftBefore,
        requests_expected: answered.size,
        requests_arrived: delays.length,
        // When the load ended: purchases whose request had not reached the provider, and dispatches not yet claimed.
        backlog_at_end: notArrived,
        queued_at_end: queued,
        all_sent_after_load_ms: allSentAfterMs,
        answer_to_request_p50_ms: quantile(delays, 0.5),
        answer_to_request_p99_ms: quantile(delays, 0.99),
        answer_to_request_max_ms: quantile(delays, 1),
        sent_per_s_during_load: during.sent_per_s,
        peak_in_flight_at_provider: during.peak_in_flight_at_provider,
        worker_cpu_percent_during_load: during.worker_cpu_percent,
        postgres_cpu_percent_during_load: during.postgres_cpu_percent,
        autovacuum_cpu_percent_during_load: during.autovacuum_cpu_percent,
        machine_busy_percent_during_load: during.machine_busy_percent,
        idle_probe_late_p99_ms: during.stall.p99_ms,
      }
    }

    const half = Math.max(1, Math.round(deps.purchaseRate / 2))
    console.log(`upstream at half the purchase rate: ${half} h2h purchases/s …`)
    const atHalf = await delaysAt(half)
    const quarter = Math.max(1, Math.round(deps.purchaseRate / 4))
    console.log(`upstream at a quarter of the purchase rate: ${quarter} h2h purchases/s …`)
    const atQuarter = await delaysAt(quarter)
    await waitUntil(async () => (await notCompleted()) === 0, SETTLE_TIMEOUT_MS)
    await provider.flush()
    return {
      provider_delay_ms: PROVIDER_DELAY_MS,
      provider_hosts: HOSTS,
      // One per dispatch is expected: a second request for a ref_id is a re-check of one still out.
      repeated_requests: provider.repeats(),
      worker_errors: Object.fromEntries(workerErrors),
      drain,
      half_rate: atHalf,
      quarter_rate: atQuarter,
    }
  } finally {
    if (worker && worker.exitCode === null && worker.signalCode === null) {
      const exited = new Promise((resolve) => worker!.once('exit', resolve))
      worker.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))])
    }
    probe.stop()
    await provider.close()
    await db.end()
  }
}
