import type { LevelRecompute } from './levels.js'
import type { ReplicaReport } from './replica.js'

/** One table of every figure of a bench run, with its ratio and the target it is held to. */
export type SummaryRow = { figure: string; value: string; ratio: number | null; target: string }

type Load = { req_per_s: number; p50_ms?: number; p99_ms: number; machine_busy_percent?: number; non_2xx?: number }
type ReadRow = { route: string; req_per_s: number; p99_ms: number; ratio?: number }

export type BenchReport = {
  /** Readings around the purchase phase and the hot item's (bench/run.ts throughputPhases); reference_tps their mean. */
  reference: { reference_tps: number; readings: { reference_tps: number; machine_busy_percent?: number }[] }
  purchase_ratio: number
  hot_item_ratio: number
  purchase: Load
  purchase_peak_rss_mb: number
  purchase_at_half_rate: { rate: number; p50_ms: number; p99_ms: number; non_2xx?: number }
  hot_item: Load
  reads: ReadRow[]
  webhooks: {
    /** The half rate is purchase_ratio × this reading (taken just before the webhook phases) / 2. */
    rate_from?: { purchase_ratio: number; reading: { reference_tps: number } }
    throughput: { events_per_s: number | null; worker_peak_rss_mb?: number }
    latency: {
      rate: number
      purchases_refused?: number
      commit_to_arrival_p50_ms: number
      commit_to_arrival_p99_ms: number
      delivered_per_s_during_load: number
      machine_busy_percent_during_load?: number
      purchase_answer_p99_ms?: number
      idle_probe_late_p99_ms?: number | null
      warmup?: { seconds: number; commit_to_arrival_p99_ms: number }
    }
    latency_at_quarter_rate: {
      commit_to_arrival_p50_ms: number
      commit_to_arrival_p99_ms: number
      warmup?: { seconds: number; commit_to_arrival_p99_ms: number }
    }
  }
  /** Absent from reports before the upstream phase. */
  upstream?: UpstreamReport
  /** Absent from reports before the supplier sync phase. */
  suppliers?: SupplierReport
  /** Absent from reports before price levels. */
  levels?: LevelRecompute
  /** Absent from reports before the replica phase. */
  replica?: ReplicaReport
  leaderboard: Record<'profile' | 'profile_large' | 'top_ten_large', Load & { accounts_in_month?: number }>
  embedded: {
    http: Load & { peak_rss_mb: number }
    loop: { calls_per_s: number }
    ratio: number
    idle_rss_mb: number
    /** Absent from reports before the at-rest reading. */
    rss_after_seed_mb?: number
    /** The alternated rounds (absent from reports before them): `http`, `loop` and `ratio` are the median round's. */
    rounds?: { ratio: number }[]
    /** Each side's warm-up before every round (absent from reports before it). */
    warm_seconds?: number
  }
}

type UpstreamRate = {
  rate: number
  purchases_refused: number
  requests_expected: number
  requests_arrived: number
  backlog_at_end: number
  all_sent_after_load_ms: number | null
  answer_to_request_p50_ms: number
  answer_to_request_p99_ms: number
  answer_to_request_max_ms: number
  sent_per_s_during_load: number
  machine_busy_percent_during_load?: number
}

/** bench/upstream.ts: h2h dispatch against a fake provider answering in provider_delay_ms. */
export type UpstreamReport = {
  provider_delay_ms: number
  provider_hosts: number
  repeated_requests: number
  drain: {
    backlog_dispatches: number
    purchases_refused: number
    all_completed: boolean
    left_not_completed: number
    seconds: number | null
    requests_per_s: number | null
    peak_in_flight_at_provider: number
    mean_in_flight_at_provider?: number | null
    worker_cpu_ms_per_request: number | null
    postgres_cpu_ms_per_request: number | null
    machine_busy_percent?: number
  }
  half_rate: UpstreamRate
  quarter_rate: UpstreamRate
}

/** bench/suppliers.ts: the second sync of a steered price list, items repriced and switched off. */
export type SupplierReport = {
  listed: number
  steered: { repriced: number; off: number; gone: number }
  sync: { wall_ms: number; postgres_cpu_ms: number; server_cpu_ms: number; machine_busy_percent: number }
  items: { linked: number; repriced: number; switched_off: number }
  unchanged_sync: { ms: number }
}

/** The price levels' recomputation row (bench/levels.ts): also what BENCH_ONLY=levels prints. */
export function levelRows(l: LevelRecompute): SummaryRow[] {
  return [
    {
      figure: `price levels: ${n(l.items)} items × ${l.levels} levels recomputed after a rule change on each`,
      value:
        `${n(l.total_ms)} ms (${l.per_level.map((x) => `${x.level} ${n(x.ms)} ms, ${n(x.prices_moved)} moved`).join('; ')})` +
        `; PostgreSQL ${n(l.postgres_cpu_ms)} ms of CPU; inserting the items at every level ${n(l.insert_ms)} ms` +
        busy(l.machine_busy_percent),
      ratio: null,
      target: '< 1 s',
    },
  ]
}

/**
 * The replica phase's row: the primary's PostgreSQL CPU per request on the routes a replica serves,
 * without and with DATABASE_READ_URL (ratio: with over without), beside GET /trx/{ref}, which stays.
 */
export function replicaRows(report: ReplicaReport): SummaryRow[] {
  if ('skipped' in report) return [{ figure: 'replica phase', value: `skipped: ${report.skipped}`, ratio: null, target: '' }]
  const served = (from: 'primary' | 'replica') => report.rows.filter((r) => r.reads_from === from && !r.route.includes('always'))
  const stays = (from: 'primary' | 'replica') => report.rows.find((r) => r.reads_from === from && r.route.includes('always'))
  const span = (rows: { primary_cpu_us_per_req: number }[]) => {
    const us = rows.map((r) => r.primary_cpu_us_per_req)
    return `${Math.min(...us)}–${Math.max(...us)} µs`
  }
  const sum = (rows: { primary_cpu_us_per_req: number }[]) => rows.reduce((total, r) => total + r.primary_cpu_us_per_req, 0)
  return [
    {
      figure: "replica: the primary's PostgreSQL CPU per read, catalog list and delta, GET /trx, mutations",
      value:
        `${span(served('primary'))} from the primary alone, ${span(served('replica'))} with DATABASE_READ_URL` +
        `; GET /trx/{ref} (kept on the primary) ${stays('primary')?.primary_cpu_us_per_req} → ${stays('replica')?.primary_cpu_us_per_req} µs`,
      ratio: sum(served('primary')) > 0 ? ratio(sum(served('replica')), sum(served('primary'))) : null,
      target: '≈ 0 with a replica',
    },
  ]
}

/** The supplier sync phase's row: also what BENCH_ONLY=suppliers prints. */
export function supplierRows(s: SupplierReport): SummaryRow[] {
  return [
    {
      figure: `supplier sync: ${n(s.listed)} listed, ${n(s.steered.repriced)} repriced, ${n(s.steered.off)} off, ${n(s.steered.gone)} gone`,
      value:
        `${n(s.sync.wall_ms)} ms (PostgreSQL ${n(s.sync.postgres_cpu_ms)} ms, server ${n(s.sync.server_cpu_ms)} ms of CPU)` +
        `; ${n(s.items.repriced)} of ${n(s.items.linked)} items repriced, ${n(s.items.switched_off)} switched off` +
        `; the same list again ${n(s.unchanged_sync.ms)} ms` +
        busy(s.sync.machine_busy_percent),
      ratio: null,
      target: 'within a few seconds',
    },
  ]
}

const READ_TARGETS: Record<string, string> = {
  'GET /api/v1/balance': '≥ 0.35',
  'GET /api/v1/balance/mutations': '≥ 0.35',
  'GET /api/v1/trx/{ref}': '≥ 0.25',
  'GET /api/v1/trx?per_page=20': '≥ 0.2',
  'GET /api/v1/item?per_page=all': '≥ 0.25',
  'GET /api/v1/item?per_page=all, 4 levels': '≥ 0.25',
  'GET /api/v1/item?updated_since (delta)': '≥ 0.25',
}

const n = (v: number) => Math.round(v).toLocaleString('en-US')
// How busy the whole machine was, in percent of one core, where the phase measured it.
const busy = (percent: number | undefined, note = '') => (percent === undefined ? '' : `; machine ${percent} % busy${note}`)
const ratio = (a: number, b: number) => Number((a / b).toFixed(3))
// A refused purchase (sold out, say) is cheap: a phase with refusals is no purchase figure.
const refused = (load: { non_2xx?: number }) => (load.non_2xx ? `; ${n(load.non_2xx)} REFUSED, not a purchase figure` : '')
const purchaseRatio = (load: Load, held: number) => (load.non_2xx ? null : held)

/** The upstream phases' rows: also what BENCH_ONLY=upstream prints. */
export function upstreamRows(u: UpstreamReport): SummaryRow[] {
  const d = u.drain
  const provider = `a ${u.provider_delay_ms} ms provider${u.provider_hosts > 1 ? ` on ${u.provider_hosts} hosts` : ''}`
  const refusedPurchases = (k: number) => (k ? `; ${n(k)} purchases REFUSED` : '')
  const repeats = u.repeated_requests ? `; ${n(u.repeated_requests)} requests REPEATED a ref_id` : ''
  // The purchase's answer stands for its commit (just before it), as in the webhook rows.
  const atRate = (x: UpstreamRate, delay: string) =>
    `${n(x.sent_per_s_during_load)} sent/s; ${delay} p50 ${x.answer_to_request_p50_ms} ms, p99 ${x.answer_to_request_p99_ms} ms, max ${x.answer_to_request_max_ms} ms` +
    (x.requests_arrived < x.requests_expected
      ? ` (of the ${n(x.requests_arrived)} of ${n(x.requests_expected)} requests that arrived)`
      : '') +
    busy(x.machine_busy_percent_during_load) +
    refusedPurchases(x.purchases_refused)
  return [
    {
      figure: `upstream: backlog drain (${n(d.backlog_dispatches)} h2h requests, ${provider})`,
      value:
        (d.all_completed && d.requests_per_s !== null
          ? `${n(d.requests_per_s)} requests/s (${d.seconds} s from the first request to the last completed)`
          : `NOT DRAINED: ${n(d.left_not_completed)} left after ${d.seconds ?? '—'} s`) +
        `; ${d.mean_in_flight_at_provider ?? '—'} in flight at the provider on average, at most ${d.peak_in_flight_at_provider}` +
        (d.worker_cpu_ms_per_request === null
          ? ''
          : `; worker ${d.worker_cpu_ms_per_request} ms, PostgreSQL ${d.postgres_cpu_ms_per_request} ms of CPU per request`) +
        busy(d.machine_busy_percent) +
        refusedPurchases(d.purchases_refused) +
        repeats,
      ratio: null,
      target: '≥ 500 requests/s',
    },
    {
      figure: `upstream at half rate (${n(u.half_rate.rate)} h2h purchases/s)`,
      value:
        `${n(u.half_rate.backlog_at_end)} not yet sent when the load ended, ` +
        (u.half_rate.all_sent_after_load_ms === null
          ? 'NOT ALL SENT within 2 minutes'
          : `all sent ${u.half_rate.all_sent_after_load_ms} ms after`) +
        `; ${atRate(u.half_rate, 'answer → request')}`,
      ratio: null,
      target: 'keeps up: the backlog gone within 1 s of the load',
    },
    {
      figure: `upstream at a quarter rate (${n(u.quarter_rate.rate)} h2h purchases/s)`,
      value: atRate(u.quarter_rate, 'commit (answer) → request'),
      ratio: null,
      target: 'p99 < 50 ms',
    },
  ]
}

export function summarize(r: BenchReport): SummaryRow[] {
  const ref = r.reference.reference_tps
  const noop = r.reads[0]?.req_per_s ?? 0
  const wh = r.webhooks
  const lb = r.leaderboard
  return [
    {
      figure: 'reference ceiling (pgbench)',
      value:
        `${n(ref)} tx/s (readings ${r.reference.readings.map((x) => n(x.reference_tps)).join(', ')})` +
        // The script's database set-up and clean-up are in that reading (a larger share of a short run).
        busy(r.reference.readings[0]?.machine_busy_percent, ', set-up included'),
      ratio: 1,
      target: '',
    },
    {
      figure: 'purchases, 64 connections',
      value: `${n(r.purchase.req_per_s)} req/s, p99 ${r.purchase.p99_ms} ms${busy(r.purchase.machine_busy_percent)}${refused(r.purchase)}`,
      ratio: purchaseRatio(r.purchase, r.purchase_ratio),
      target: '≥ 0.9 of the readings around it',
    },
    {
      figure: `purchases at half rate (${n(r.purchase_at_half_rate.rate)}/s)`,
      value: `p50 ${r.purchase_at_half_rate.p50_ms} ms, p99 ${r.purchase_at_half_rate.p99_ms} ms${refused(r.purchase_at_half_rate)}`,
      ratio: null,
      target: '',
    },
    {
      figure: 'hot item, 64 connections',
      value: `${n(r.hot_item.req_per_s)} req/s, p99 ${r.hot_item.p99_ms} ms${busy(r.hot_item.machine_busy_percent)}${refused(r.hot_item)}`,
      ratio: purchaseRatio(r.hot_item, r.hot_item_ratio),
      target: '≥ 0.9 of the readings around it',
    },
    { figure: 'server RSS, peak under purchases', value: `${r.purchase_peak_rss_mb} MB`, ratio: null, target: '< 200 MB' },
    ...r.reads.map((row) => ({
      figure: row.route,
      value: `${n(row.req_per_s)} req/s, p99 ${row.p99_ms} ms`,
      ratio: row === r.reads[0] ? 1 : ratio(row.req_per_s, noop),
      target: READ_TARGETS[row.route] ? `${READ_TARGETS[row.route]} of no-op` : row === r.reads[0] ? 'the yardstick' : 'measured',
    })),
    {
      figure: 'webhooks: backlog drain',
      value: `${wh.throughput.events_per_s === null ? 'no backlog to drain (purchases refused?)' : `${n(wh.throughput.events_per_s)} events/s`}${wh.throughput.worker_peak_rss_mb ? `, worker RSS ${wh.throughput.worker_peak_rss_mb} MB` : ''}`,
      ratio: null,
      target: 'keeps up with purchases',
    },
    {
      figure: `webhooks at half rate (${n(wh.latency.rate)} purchases/s)`,
      value:
        `${n(wh.latency.delivered_per_s_during_load)} delivered/s; commit → arrival p50 ${wh.latency.commit_to_arrival_p50_ms} ms, p99 ${wh.latency.commit_to_arrival_p99_ms} ms` +
        (wh.latency.warmup ? ` (its ${wh.latency.warmup.seconds} s warm-up: p99 ${wh.latency.warmup.commit_to_arrival_p99_ms} ms)` : '') +
        (wh.latency.purchase_answer_p99_ms === undefined
          ? ''
          : `; meanwhile purchases answered at p99 ${wh.latency.purchase_answer_p99_ms} ms, ${wh.latency.idle_probe_late_p99_ms === null ? 'no idle probe reading' : `an idle process woke up to ${wh.latency.idle_probe_late_p99_ms} ms late (p99)`}`) +
        (wh.latency.purchases_refused ? `; ${n(wh.latency.purchases_refused)} purchases REFUSED` : ''),
      ratio: null,
      target: wh.rate_from
        ? `p99 < 50 ms (rate: ${wh.rate_from.purchase_ratio} × ${n(wh.rate_from.reading.reference_tps)} tx/s read just before, halved)`
        : 'p99 < 50 ms',
    },
    {
      figure: 'webhooks at a quarter rate',
      value:
        `p50 ${wh.latency_at_quarter_rate.commit_to_arrival_p50_ms} ms, p99 ${wh.latency_at_quarter_rate.commit_to_arrival_p99_ms} ms` +
        (wh.latency_at_quarter_rate.warmup
          ? ` (first ${wh.latency_at_quarter_rate.warmup.seconds} s, a new worker: p99 ${wh.latency_at_quarter_rate.warmup.commit_to_arrival_p99_ms} ms)`
          : ''),
      ratio: null,
      target: '',
    },
    ...(r.upstream ? upstreamRows(r.upstream) : []),
    ...(r.suppliers ? supplierRows(r.suppliers) : []),
    ...(r.levels ? levelRows(r.levels) : []),
    ...(r.replica ? replicaRows(r.replica) : []),
    {
      figure: 'GET /api/v1/leaderboard/profile (≈ 100 accounts)',
      value: `${n(lb.profile.req_per_s)} req/s, p99 ${lb.profile.p99_ms} ms`,
      ratio: noop ? ratio(lb.profile.req_per_s, noop) : null,
      target: 'of no-op',
    },
    {
      figure: `GET /api/v1/leaderboard/profile (${n(lb.profile_large.accounts_in_month ?? 0)} accounts)`,
      value: `${n(lb.profile_large.req_per_s)} req/s, p99 ${lb.profile_large.p99_ms} ms`,
      ratio: ratio(lb.profile_large.req_per_s, lb.profile.req_per_s),
      target: '≈ 1 of the small month',
    },
    {
      figure: 'GET /api/v1/leaderboard (top ten, large month)',
      value: `${n(lb.top_ten_large.req_per_s)} req/s, p99 ${lb.top_ten_large.p99_ms} ms`,
      ratio: noop ? ratio(lb.top_ten_large.req_per_s, noop) : null,
      target: 'of no-op',
    },
    {
      figure: 'embedded: purchases over HTTP (16 connections), the median of alternated rounds',
      value: `${n(r.embedded.http.req_per_s)} req/s, p99 ${r.embedded.http.p99_ms} ms${
        r.embedded.rounds ? `; rounds ${r.embedded.rounds.map((x) => x.ratio).join(', ')}` : ''
      }${r.embedded.warm_seconds ? `, each after ${r.embedded.warm_seconds} s warm-up` : ''}`,
      ratio: r.embedded.ratio,
      target: '≥ 0.7 of the PGlite loop',
    },
    { figure: 'embedded: purchase() in a PGlite loop', value: `${n(r.embedded.loop.calls_per_s)} calls/s`, ratio: 1, target: '' },
    {
      figure: 'embedded: RSS idle (at rest after the seed) / right after the seed / peak under purchases',
      value: `${r.embedded.idle_rss_mb} / ${r.embedded.rss_after_seed_mb ?? '—'} / ${r.embedded.http.peak_rss_mb} MB`,
      ratio: null,
      target: 'idle < 300 MB',
    },
  ]
}
