/**
 * The embedded mode (PGlite, no DATABASE_URL): purchases over HTTP against a server as `npm start`
 * runs it, then, on the same data directory with the server stopped, a loop calling the server's
 * own callPurchase() (the same statement, the same values) straight on PGlite, back to back in one
 * process. The ratio is what HTTP, auth and the service add on top of the database function (PGlite
 * runs one statement at a time).
 */
import fs from 'node:fs'
import path from 'node:path'
import { DEFAULT_EMBEDDED_SHARED_BUFFERS_MB } from '../src/config.js'
import { openPGlite, type PreparedStatement } from '../src/db/database.js'
import { callPurchase } from '../src/modules/checkout/index.js'
import { api, freePort, purchaseLoad, rssMb, startServer } from './harness.js'

const ACCOUNTS = 10
// Idle is at rest: the seed leaves garbage V8 collects, and hands back, only once its memory reducer
// sees the process idle (about 30 s after the last allocations). RSS is read this long after the seed.
const REST_SECONDS = 45
// The two sides alternate, a round of each at a time: on a shared machine the speed moves within a
// minute, and one side measured after the other measured the machine's moves. The median round's
// ratio is the figure.
const ROUNDS = 3
// Each side starts every round cold (a new server, or a loop whose process has not run PGlite yet):
// this long of the same calls first, unmeasured. A new server under load reaches its steady rate
// only after about 10 s, while V8 compiles PGlite's WebAssembly up to its optimized tier in the
// background; the loop's process compiles it once, in its first round, and reuses it after.
const WARM_SECONDS = 10
// Enough for both phases on a fast machine (a phase that sells out measures refusals); the loop
// also stops when stock does.
const licensesFor = (seconds: number) => Math.max(20_000, Math.ceil((seconds * 3_000) / 10_000) * 10_000)
// What the service passes as the processes it can fulfil with the default dispatchers.
const PROCESSES = ['auto', 'manual', 'h2h', 'smm']

async function seed(base: string, licenses: number) {
  const accounts: { id: number; key: string }[] = []
  for (let i = 0; i < ACCOUNTS; i++) {
    const account = await api(base, 'POST', '/resellers', { name: `embedded ${i}` })
    await api(base, 'POST', `/resellers/${account.id}/balance`, { amount: 1e13, reason: 'bench' })
    accounts.push({ id: account.id, key: account.api_key })
  }
  const item = await api(base, 'POST', '/items', { product_name: 'Embedded', name: 'V', sku: 'EMB-1', price: 1000, order_process: 'auto' })
  await addLicenses(base, item.id, licenses, 'EMB')
  return { accounts, itemId: item.id as number }
}

async function addLicenses(base: string, itemId: number, count: number, prefix: string) {
  for (let done = 0; done < count; done += 10_000) {
    const licenses = Array.from({ length: 10_000 }, (_, n) => `${prefix}-${done + n}-${Math.random().toString(36).slice(2)}`)
    await api(base, 'POST', `/items/${itemId}/licenses`, { licenses })
  }
}

async function overHttp(base: string, pid: number, seconds: number, keys: string[], itemId: number, round: string) {
  let ref = 0
  const { result, peakRssMb } = await purchaseLoad(base, {
    connections: 16,
    seconds,
    pid,
    next: () => ({
      headers: { 'content-type': 'application/json', 'x-apikey': keys[ref % keys.length] },
      body: JSON.stringify({ ref_id: `emb-http-${round}-${++ref}`, carts: [{ item_id: itemId, quantity: 1 }] }),
    }),
  })
  return {
    req_per_s: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result['5xx'] + result.errors + result.timeouts,
    peak_rss_mb: peakRssMb,
  }
}

async function functionLoop(dataDir: string, seconds: number, accountIds: number[], itemId: number, round: string) {
  // As the server opened it: the ratio is of HTTP and the service, not of two memory settings.
  const { pglite, close } = await openPGlite({ dataDir: path.join(dataDir, 'pglite'), sharedBuffersMb: DEFAULT_EMBEDDED_SHARED_BUFFERS_MB })
  try {
    // The server's statement and values, without its queue for PGlite's one session.
    const prepared: PreparedStatement = async <R>(_name: string, text: string, values: unknown[]) =>
      (await pglite!.query<R>(text, values)).rows
    // Calls until the deadline or until stock runs out; how many were made.
    const callUntil = async (deadline: number, prefix: string) => {
      let calls = 0
      while (Date.now() < deadline) {
        calls++
        const call = {
          accountId: accountIds[calls % accountIds.length]!,
          refId: `emb-${prefix}-${round}-${calls}`,
          invoice: `INV-EMB-${prefix}-${round}-${calls}`,
          carts: [{ item_id: itemId, quantity: 1 }],
          lockToken: null,
          processes: PROCESSES,
        }
        const sold = await callPurchase(prepared, call).then(
          () => true,
          (error: { code?: string }) => {
            if (error.code === 'OUT_OF_STOCK') return false
            throw error
          },
        )
        if (!sold) break
      }
      return calls
    }
    const warmed = await callUntil(Date.now() + WARM_SECONDS * 1000, 'warm')
    const started = Date.now()
    const calls = await callUntil(started + seconds * 1000, 'loop')
    return { calls_per_s: Math.round((calls * 1000) / (Date.now() - started)), warm_calls_per_s: Math.round(warmed / WARM_SECONDS) }
  } finally {
    await close()
  }
}

export async function embeddedBench(seconds: number) {
  const dataDir = fs.mkdtempSync('/tmp/reseller-bench-embedded-')
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const start = () => startServer('', port, { DATA_DIR: dataDir })
  let server = await start()
  try {
    console.log('embedded: seeding …')
    const { accounts, itemId } = await seed(base, licensesFor(seconds))
    const afterSeed = rssMb(server.pid!)
    console.log(`embedded: ${REST_SECONDS} s at rest …`)
    await new Promise((resolve) => setTimeout(resolve, REST_SECONDS * 1000))
    const idle = rssMb(server.pid!)
    // The warm-ups' stock after the reading at rest: the memory figure is of the same seed as before.
    await addLicenses(base, itemId, licensesFor(ROUNDS * WARM_SECONDS), 'EMB-WARM')
    const roundSeconds = Math.max(1, Math.round(seconds / ROUNDS))
    const keys = accounts.map((a) => a.key)
    const accountIds = accounts.map((a) => a.id)
    const rounds = []
    for (let r = 0; r < ROUNDS; r++) {
      if (r > 0) server = await start()
      console.log(
        `embedded: round ${r + 1} of ${ROUNDS}, purchases over HTTP (16 connections), then the same purchase() in a PGlite loop …`,
      )
      const warm = await overHttp(base, server.pid!, WARM_SECONDS, keys, itemId, `w${r}`)
      const http = await overHttp(base, server.pid!, roundSeconds, keys, itemId, `r${r}`)
      server.kill('SIGTERM')
      await new Promise((resolve) => server.once('exit', resolve))
      const loop = await functionLoop(dataDir, roundSeconds, accountIds, itemId, `r${r}`)
      rounds.push({ http, warm, loop, ratio: Number((http.req_per_s / loop.calls_per_s).toFixed(3)) })
    }
    const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(ROUNDS / 2)]!
    const peakRssMb = Math.max(...rounds.flatMap((r) => [r.warm.peak_rss_mb, r.http.peak_rss_mb]))
    return {
      idle_rss_mb: idle,
      rss_after_seed_mb: afterSeed,
      http: { ...median.http, peak_rss_mb: peakRssMb },
      loop: median.loop,
      ratio: median.ratio,
      warm_seconds: WARM_SECONDS,
      // The warm-ups' rates beside the measured ones: how far each side was from steady when measuring began.
      rounds: rounds.map((r) => ({
        http_req_per_s: r.http.req_per_s,
        loop_calls_per_s: r.loop.calls_per_s,
        ratio: r.ratio,
        http_warm_req_per_s: r.warm.req_per_s,
        loop_warm_calls_per_s: r.loop.warm_calls_per_s,
      })),
    }
  } finally {
    if (server.exitCode === null) server.kill('SIGTERM')
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
