/**
 * npm run bench:memory: the server's RSS, idle and under 64 connections of purchases, on
 * PostgreSQL, once per runtime variant (MEMORY_VARIANTS: name=node flags;…). Relative figures.
 */
import { DB_NAME, api, dropDatabase, freePort, purchaseLoad, recreateDatabase, rssMb, startServer } from './harness.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const VARIANTS = (process.env.MEMORY_VARIANTS ?? 'V8 default=--max-semi-space-size=16;npm start=--max-semi-space-size=4')
  .split(';')
  .map((v) => [v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1)])

async function variant(name: string, nodeOptions: string) {
  const db = `${DB_NAME}_memory`
  const url = await recreateDatabase(db)
  const port = await freePort()
  const server = await startServer(url, port, {}, 'listening on', nodeOptions.split(' ').filter(Boolean))
  const base = `http://127.0.0.1:${port}`
  try {
    const idle = rssMb(server.pid!)
    const keys: string[] = []
    for (let i = 0; i < 20; i++) {
      const account = await api(base, 'POST', '/resellers', { name: `memory ${i}` })
      await api(base, 'POST', `/resellers/${account.id}/balance`, { amount: 1e13, reason: 'bench' })
      keys.push(account.api_key)
    }
    const item = await api(base, 'POST', '/items', { product_name: 'Memory', name: 'V', sku: 'MEM-1', price: 1000, order_process: 'auto' })
    const licenses = Array.from({ length: 10000 }, (_, n) => `MEM-${n}-${Math.random().toString(36).slice(2)}`)
    await api(base, 'POST', `/items/${item.id}/licenses`, { licenses })
    let ref = 0
    const { result, peakRssMb } = await purchaseLoad(base, {
      connections: 64,
      seconds: SECONDS,
      pid: server.pid,
      next: () => ({
        headers: { 'content-type': 'application/json', 'x-apikey': keys[ref % keys.length] },
        body: JSON.stringify({ ref_id: `mem-${++ref}`, carts: [{ item_id: item.id, quantity: 1 }] }),
      }),
    })
    return {
      variant: name,
      node_options: nodeOptions,
      idle_mb: idle,
      peak_mb: peakRssMb,
      after_mb: rssMb(server.pid!),
      req_per_s: Math.round(result.requests.average),
    }
  } finally {
    server.kill('SIGTERM')
    await new Promise((resolve) => server.once('exit', resolve))
    await dropDatabase(db)
  }
}

const rows = []
for (const [name, options] of VARIANTS) rows.push(await variant(name!, options ?? ''))
console.table(rows)
