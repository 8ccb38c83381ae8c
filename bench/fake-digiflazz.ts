/**
 * A fake Digiflazz buyer API for the upstream bench, on a thread of its own (as bench/receiver.ts,
 * for the same reason: on the load generator's busy event loop it would answer and stamp late).
 * Every POST /transaction is answered after `delayMs` with a success; the thread stamps each
 * ref_id's arrival and counts the requests open at once.
 */
import { Worker } from 'node:worker_threads'

const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6

type Arrival = [ref: string, at: number]

// Plain JavaScript: a worker thread does not get the tsx loader this bench runs under.
// counters: [0] requests arrived, [1] open now, [2] most open at once since the last reset.
const PROVIDER_THREAD = `
const http = require('node:http')
const { parentPort, workerData } = require('node:worker_threads')
const counters = new Int32Array(workerData.counters)
let batch = []
const flush = () => {
  if (batch.length) parentPort.postMessage({ arrivals: batch })
  batch = []
}
setInterval(flush, 20)
const field = (body, name) => {
  const m = new RegExp('"' + name + '":"([^"]*)"').exec(body)
  return m ? m[1] : ''
}
const handle = (req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const at = Number(process.hrtime.bigint()) / 1e6
    if (req.method !== 'POST' || req.url !== '/transaction') return void res.writeHead(404).end()
    // The fields wanted only, by pattern: a full parse per request is CPU the machine shares.
    const body = Buffer.concat(chunks).toString()
    const ref = field(body, 'ref_id')
    batch.push([ref, at])
    Atomics.add(counters, 0, 1)
    const open = Atomics.add(counters, 1, 1) + 1
    if (open > Atomics.load(counters, 2)) Atomics.store(counters, 2, open)
    setTimeout(() => {
      Atomics.sub(counters, 1, 1)
      const data = {
        ref_id: ref,
        customer_no: field(body, 'customer_no'),
        buyer_sku_code: field(body, 'buyer_sku_code'),
        rc: '00',
        status: 'Sukses',
        message: 'Transaksi Sukses',
        sn: 'SN' + ref,
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }))
    }, workerData.delayMs)
  })
}
const servers = []
let listening = 0
for (let i = 0; i < workerData.hosts; i++) {
  const server = http.createServer(handle)
  servers.push(server)
  server.listen(0, '127.0.0.1', () => {
    if (++listening === workerData.hosts) parentPort.postMessage({ ports: servers.map((s) => s.address().port) })
  })
}
parentPort.on('message', (m) => {
  if (m === 'flush') flush(), parentPort.postMessage({ flushed: true })
  if (m === 'close') {
    let left = servers.length
    for (const s of servers) s.closeAllConnections(), s.close(() => --left === 0 && process.exit(0))
  }
})
`

/**
 * Starts the fake provider: `hosts` listeners on 127.0.0.1 (each its own host:port, so its own
 * UPSTREAM_PER_HOST budget), answering after `delayMs`. `arrivals` holds each ref_id's first
 * arrival and `times` every arrival, in this thread's `performance.now()` terms once `flush()`
 * has resolved; `count()`, `open()` and `peakOpen()` are exact at any moment.
 */
export async function startFakeDigiflazz({ delayMs, hosts = 1 }: { delayMs: number; hosts?: number }) {
  const counters = new Int32Array(new SharedArrayBuffer(12))
  const thread = new Worker(PROVIDER_THREAD, { eval: true, workerData: { counters: counters.buffer, delayMs, hosts } })
  // The first calls of either clock are slow (1–2 ms apart): the offset is the last of a few readings.
  let offset = 0
  for (let i = 0; i < 5; i++) offset = monotonicMs() - performance.now()
  const arrivals = new Map<string, number>()
  const times: number[] = []
  let repeats = 0
  const flushed: (() => void)[] = []
  const ports = await new Promise<number[]>((resolve, reject) => {
    thread.on('error', reject)
    thread.on('message', (m: { ports?: number[]; arrivals?: Arrival[]; flushed?: boolean }) => {
      if (m.ports) resolve(m.ports)
      for (const [ref, at] of m.arrivals ?? []) {
        times.push(at - offset)
        if (arrivals.has(ref)) repeats++
        else arrivals.set(ref, at - offset)
      }
      if (m.flushed) flushed.shift()?.()
    })
  })
  return {
    urls: ports.map((port) => `http://127.0.0.1:${port}`),
    arrivals,
    times,
    /** Requests for a ref_id already seen (a re-send: none expected with a provider that answers at once). */
    repeats: () => repeats,
    count: () => Atomics.load(counters, 0),
    open: () => Atomics.load(counters, 1),
    peakOpen: () => Atomics.load(counters, 2),
    resetPeak: () => void Atomics.store(counters, 2, Atomics.load(counters, 1)),
    flush: () => new Promise<void>((resolve) => (flushed.push(resolve), thread.postMessage('flush'))),
    close: () => new Promise((resolve) => (thread.once('exit', resolve), thread.postMessage('close'))),
  }
}
