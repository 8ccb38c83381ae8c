/**
 * The read part of npm run bench: what resellers' bots call far more often than they buy. Seeds a
 * catalog of 50 products × 4 variants, one reseller with 20 orders and 64 with one each, then runs autocannon at 64
 * connections on each read route and on lock + release pairs, with GET /healthz (a no-op route) in
 * the same run as the yardstick: each row's ratio is its req/s over the no-op route's. Last, with the
 * bench's database at hand, the full listing again as accounts spread over four price levels.
 */
import fs from 'node:fs'
import autocannon from 'autocannon'
import { fourLevels } from './levels.js'

export type ReadsBenchDeps = {
  base: string
  seconds: number
  /** POST/GET/PATCH on the operator API; answers `data`. */
  admin: (method: string, url: string, body?: object) => Promise<any>
  /** Funded reseller keys (the lock phase spreads over them: at most 10 active locks each). */
  keys: string[]
  /** Auto items with ample licenses (lockable). */
  items: number[]
  /** The server's pid: its CPU time per request is a figure a busy machine disturbs less than req/s. */
  serverPid?: number
  /** The bench's database: given, the listing is measured again with four price levels (bench/levels.ts), last. */
  databaseUrl?: string
  /** Only the phases whose route names contain one of these (else BENCH_ROUTES, else all). */
  routes?: string[]
}

export type ReadRow = {
  route: string
  req_per_s: number
  p50_ms: number
  p99_ms: number
  non_2xx: number
  errors: number
  ratio?: number
  server_cpu_us_per_req?: number
}

/** CPU time (user + system) a process has used so far, in microseconds. */
function cpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return ((Number(fields[11]) + Number(fields[12])) / 100) * 1e6
}

const PRODUCTS = 50
const VARIANTS = 4

async function reseller(base: string, key: string, method: string, url: string, body?: object) {
  const res = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { 'x-apikey': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const json = (await res.json()) as any
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`)
  return json
}

/** 50 products × 4 variants in 5 categories: an auto variant with licenses, two counters, one unlimited. */
async function seedCatalog(admin: ReadsBenchDeps['admin']): Promise<number[]> {
  const ids: number[] = []
  for (let p = 0; p < PRODUCTS; p++) {
    for (let v = 0; v < VARIANTS; v++) {
      const auto = v === 0
      const item = await admin('POST', '/items', {
        product_name: `Read Product ${p}`,
        category: `Read Category ${p % 5}`,
        name: `Variant ${p}-${v}`,
        sku: `READ-${p}-${v}`,
        price: 5000 + p * 100 + v,
        order_process: auto ? 'auto' : 'manual',
        ...(auto ? {} : v === 3 ? { unlimited_stock: true } : { stock: 1000 }),
        description: `Variant ${v} of read product ${p}`,
      })
      if (auto)
        await admin('POST', `/items/${item.id}/licenses`, {
          licenses: Array.from({ length: 50 }, (_, n) => `READ-${p}-${n}-${Math.random().toString(36).slice(2)}`),
        })
      ids.push(item.id)
    }
  }
  return ids
}

type Requests = autocannon.Request[]

async function measure(base: string, seconds: number, route: string, requests: Requests, pid?: number): Promise<ReadRow> {
  const cpuBefore = pid ? cpuMicros(pid) : 0
  const result = await autocannon({ url: base, connections: 64, duration: seconds, requests })
  const cpu = pid ? { server_cpu_us_per_req: Math.round((cpuMicros(pid) - cpuBefore) / Math.max(1, result.requests.total)) } : {}
  return {
    route,
    req_per_s: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    ...cpu,
  }
}

export async function readsBench(deps: ReadsBenchDeps): Promise<ReadRow[]> {
  const { base, seconds, admin } = deps
  console.log('reads: seeding 50 products × 4 variants and a reseller with 20 orders …')
  const variants = await seedCatalog(admin)
  const account = await admin('POST', '/resellers', { name: 'reads bench' })
  await admin('POST', `/resellers/${account.id}/balance`, { amount: 1e12, reason: 'bench' })
  const key: string = account.api_key
  const before = await reseller(base, key, 'GET', '/item?per_page=all')
  console.log(`reads: the full listing is ${before.data.length} variants, ${Math.round(JSON.stringify(before).length / 1024)} KiB`)
  const refs: string[] = []
  for (let i = 0; i < 20; i++) {
    const item = i % 2 === 0 ? variants[(i * VARIANTS) % variants.length] : deps.items[i % deps.items.length]
    refs.push(`reads-${process.pid}-${i}`)
    await reseller(base, key, 'POST', '/trx', { ref_id: refs[i], carts: [{ item_id: item, quantity: 1 + (i % 3) }] })
  }
  // One order in each of 64 other accounts: the polls of many resellers share a statement only in its
  // round trip, each reads its own rows.
  const spread: { key: string; ref: string }[] = []
  for (const [i, other] of deps.keys.slice(0, 64).entries()) {
    spread.push({ key: other, ref: `reads-${process.pid}-k${i}` })
    await reseller(base, other, 'POST', '/trx', {
      ref_id: spread[i].ref,
      carts: [{ item_id: deps.items[i % deps.items.length], quantity: 1 }],
    })
  }
  // A delta since before those sales: the variants they sold.
  const since = encodeURIComponent(before.server_time)
  await reseller(base, key, 'POST', '/item/lock', { item_id: deps.items[0], quantity: 1, lock_duration: 600 })
  const headers = { 'x-apikey': key }
  let n = 0
  const get = (path: string | (() => string)): Requests => [
    { method: 'GET', setupRequest: (r: any) => ({ ...r, path: typeof path === 'string' ? path : path(), headers }) },
  ]
  const random = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]
  const asOne = (path: (who: { key: string; ref: string }) => string): Requests => [
    {
      method: 'GET',
      setupRequest: (r: any) => {
        const who = random(spread)
        return { ...r, path: path(who), headers: { 'x-apikey': who.key } }
      },
    },
  ]
  const lockPair: Requests = [
    {
      method: 'POST',
      path: '/api/v1/item/lock',
      setupRequest: (r: any, context: any) => {
        context.key = random(deps.keys)
        const body = JSON.stringify({ item_id: random(deps.items), quantity: 1, lock_duration: 60 })
        return { ...r, headers: { 'x-apikey': context.key, 'content-type': 'application/json' }, body }
      },
      onResponse: (_status: number, body: string, context: any) => {
        context.token = (JSON.parse(body) as { data?: { lock_token?: string } }).data?.lock_token ?? 'none'
      },
    },
    {
      method: 'DELETE',
      setupRequest: (r: any, context: any) => ({ ...r, path: `/api/v1/item/lock/${context.token}`, headers: { 'x-apikey': context.key } }),
    },
  ]
  const phases: [string, Requests][] = [
    ['GET /healthz (no-op)', get('/healthz')],
    ['GET /api/v1/balance', get('/api/v1/balance')],
    ['GET /api/v1/balance/mutations', get('/api/v1/balance/mutations')],
    ['GET /api/v1/trx/{ref}', get(() => `/api/v1/trx/${refs[n++ % refs.length]}`)],
    ['GET /api/v1/balance, 64 accounts', asOne(() => '/api/v1/balance')],
    ['GET /api/v1/trx/{ref}, 64 accounts', asOne((who) => `/api/v1/trx/${who.ref}`)],
    ['GET /api/v1/trx?per_page=20', get('/api/v1/trx?per_page=20')],
    ['GET /api/v1/item?per_page=all', get('/api/v1/item?per_page=all')],
    ['GET /api/v1/item?updated_since (delta)', get(`/api/v1/item?per_page=all&updated_since=${since}`)],
    ['GET /api/v1/item/lock', get('/api/v1/item/lock')],
    ['POST + DELETE /api/v1/item/lock (pairs)', lockPair],
  ]
  // BENCH_ROUTES=healthz,mutations: only the phases whose route names contain one of these (profiling one route).
  const wanted = deps.routes ?? process.env.BENCH_ROUTES?.split(',')
  const chosen = (route: string, i = 1) => i === 0 || !wanted || wanted.some((w) => route.includes(w))
  const rows: ReadRow[] = []
  for (const [route, requests] of phases.filter(([route], i) => chosen(route, i))) {
    console.log(`reads: ${route} …`)
    rows.push(await measure(base, seconds, route, requests, deps.serverPid))
  }
  // Last, as the levels it makes would be in every snapshot the phases above read: 64 accounts over four levels.
  const fourLevelsRoute = 'GET /api/v1/item?per_page=all, 4 levels'
  if (deps.databaseUrl && chosen(fourLevelsRoute)) {
    console.log('reads: four price levels with rules, 64 accounts spread over them …')
    const levelKeys = await fourLevels({ databaseUrl: deps.databaseUrl, admin })
    const asAnyLevel: Requests = [
      {
        method: 'GET',
        setupRequest: (r: any) => ({ ...r, path: '/api/v1/item?per_page=all', headers: { 'x-apikey': random(levelKeys) } }),
      },
    ]
    console.log(`reads: ${fourLevelsRoute} …`)
    rows.push(await measure(base, seconds, fourLevelsRoute, asAnyLevel, deps.serverPid))
  }
  const noop = rows[0].req_per_s
  for (const row of rows) row.ratio = Number((row.req_per_s / noop).toFixed(3))
  console.table(rows)
  return rows
}
