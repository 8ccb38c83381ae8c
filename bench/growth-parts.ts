/** What bench:growth and bench:growth-ab share: the catalog, the accounts, a measured figure. */
import autocannon from 'autocannon'
import type pg from 'pg'
import { ADMIN, api, cpuSeconds } from './harness.js'
import { deliveriesOf } from './growth-seed-records.js'

export const OWN_ORDERS = 100 // the measured account's own orders: the average at scale 1 (10M / 100k)

export type Target = { name: string; key: () => string; method?: 'GET' | 'POST'; path: () => string; body?: () => string }

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
