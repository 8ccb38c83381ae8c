/** What bench:growth and bench:growth-ab share: the catalog, the accounts, a measured figure. */
import autocannon from 'autocannon'
import type pg from 'pg'
import { ADMIN, api, cpuSeconds } from './harness.js'
import { deliveriesOf } from './growth-seed-records.js'

export const OWN_ORDERS = 100 // the measured account's own orders: the average at scale 1 (10M / 100k)

export type Target = { name: string; key: () => string; method?: 'GET' | 'POST'; path: () => string; body?: () => string }
export type Who = { id: number; key: string }
/** One database's measured accounts: the reader, the buyers, the items they buy; the whale on a grown one. */
export type Side = { base: string; reader: Who; buyers: Who[]; sellable: number[]; whale?: Who }

const random = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!
// Purchase refs unique to this process: a kept grown database already holds the last run's.
const run = Date.now().toString(36)
let purchases = 0

/**
 * The figures both growth benches measure, in their order: the reader's reads (what bots poll), the
 * no-op, the catalog, the purchase, then the whale's reads when the side has a whale. A read's name
 * is its account's tag and route (`reader GET /trx/{ref}`), so a whale's figure pairs with the reader's.
 */
export async function growthTargets(side: Side): Promise<Target[]> {
  const { base, reader } = side
  const reads = async (who: Who, tag: string, refs: string[]): Promise<Target[]> => {
    const first = await fetch(`${base}/api/v1/trx?per_page=20`, { headers: { 'x-apikey': who.key } })
    const last = ((await first.json()) as { meta: { last_page: number } }).meta.last_page
    return [
      { name: `${tag} GET /trx/{ref}`, key: () => who.key, path: () => `/api/v1/trx/${random(refs)}` },
      { name: `${tag} GET /trx page 1`, key: () => who.key, path: () => '/api/v1/trx?per_page=20' },
      { name: `${tag} GET /trx last page`, key: () => who.key, path: () => `/api/v1/trx?per_page=20&page=${last}` },
      { name: `${tag} GET /balance/mutations`, key: () => who.key, path: () => '/api/v1/balance/mutations' },
      { name: `${tag} GET /webhook/deliveries`, key: () => who.key, path: () => '/api/v1/webhook/deliveries' },
    ]
  }
  return [
    ...(await reads(reader, 'reader', ['own-1', 'own-50'])),
    // The yardstick: a route that touches no table.
    { name: 'GET /healthz (no-op)', key: () => reader.key, path: () => '/healthz' },
    { name: 'GET /item?per_page=all', key: () => reader.key, path: () => '/api/v1/item?per_page=all' },
    {
      name: 'POST /trx (purchase)',
      method: 'POST',
      key: () => random(side.buyers).key,
      path: () => '/api/v1/trx',
      body: () => JSON.stringify({ ref_id: `growth-${run}-${++purchases}`, carts: [{ item_id: random(side.sellable), quantity: 1 }] }),
    },
    // The seed's orders g10 and g20 are the whale's oldest (growth-seed.ts).
    ...(side.whale ? await reads(side.whale, 'whale', ['g10', 'g20']) : []),
  ]
}

/** The reader's figure a whale's read is held against (the empty side has no whale). */
export const readerFigure = (name: string) => name.replace(/^whale /, 'reader ')

/** CPU seconds so far of the server and of every backend on the bench's database, by pid. */
export type CpuProbe = () => Promise<Map<number, number>>
const cpuOf = (pid: number) => {
  try {
    return cpuSeconds(pid)
  } catch {
    return 0 // gone meanwhile
  }
}

export async function measure(base: string, t: Target, seconds: number, probeCpu: CpuProbe) {
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

export async function catalog(base: string) {
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
export async function audit(base: string, id: number) {
  const started = performance.now()
  try {
    const res = await fetch(`${base}/api/admin/v1/resellers/${id}/audit`, { headers: { authorization: `Bearer ${ADMIN}` } })
    const body = (await res.json()) as { data?: { consistent: boolean } }
    return { status: res.status, ms: Math.round(performance.now() - started), consistent: body.data?.consistent ?? null }
  } catch (error) {
    // The whale's audit at scale 1 once lost its connection: a figure of its own, not the end of the run.
    return { status: 0, ms: Math.round(performance.now() - started), consistent: null, error: String(error) }
  }
}

export async function reseller(base: string, name: string) {
  const account = await api(base, 'POST', '/resellers', { name })
  await api(base, 'POST', `/resellers/${account.id}/balance`, { amount: 1e13, reason: 'bench' })
  return { id: account.id as number, key: account.api_key as string }
}

export async function buy(base: string, key: string, ref: string, item: number) {
  const res = await fetch(`${base}/api/v1/trx`, {
    method: 'POST',
    headers: { 'x-apikey': key, 'content-type': 'application/json' },
    body: JSON.stringify({ ref_id: ref, carts: [{ item_id: item, quantity: 1 }] }),
  })
  if (!res.ok) throw new Error(`purchase ${ref}: ${res.status} ${await res.text()}`)
}

/** The probe of one server process and its database's backends (our own client's left out). */
export function backendsCpu(db: pg.Client, serverPid: number): CpuProbe {
  return async () => {
    const { rows } = await db.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    )
    return new Map([serverPid, ...rows.map((r) => r.pid)].map((pid) => [pid, cpuOf(pid)]))
  }
}

/**
 * The measured reader's deliveries, one per own order, on either side: its list then reads a page
 * of 20 on the empty database too (an empty list against the whale's full page measured the
 * page, not the growth). Once per account.
 */
export async function ownDeliveries(db: pg.Client, accountId: number) {
  await db.query(
    `${deliveriesOf(`o.account_id = ${Number(accountId)}`)} AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.order_id = o.id)`,
  )
}
