/**
 * The webhook receiver of the bench, on a thread of its own: on the load generator's busy event
 * loop it answered late, which held the worker's slots and stamped arrivals late.
 */
import { Worker } from 'node:worker_threads'

/** Milliseconds on the monotonic clock every thread of the process shares (the thread stamps arrivals with it). */
const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6

type Arrival = [key: string, at: number]

// The thread's code, plain JavaScript: a worker thread does not get the tsx loader this bench runs under.
const RECEIVER_THREAD = `
const http = require('node:http')
const { parentPort, workerData } = require('node:worker_threads')
const counter = new Int32Array(workerData.counter)
let batch = []
const flush = () => {
  if (batch.length) parentPort.postMessage({ arrivals: batch })
  batch = []
}
setInterval(flush, 20)
const server = http.createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const at = Number(process.hrtime.bigint()) / 1e6
    // Only the order's ref_id and the event are wanted: no parse of the whole body (the thread's CPU is the machine's).
    const ref = /"ref_id":"([^"]*)"/.exec(Buffer.concat(chunks).toString())
    batch.push([(ref ? ref[1] : '') + '|' + req.headers['x-event'], at])
    Atomics.add(counter, 0, 1)
    res.writeHead(200).end()
  })
})
parentPort.on('message', (m) => {
  if (m === 'flush') flush(), parentPort.postMessage({ flushed: true })
  if (m === 'close') server.closeAllConnections(), server.close(() => process.exit(0))
})
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }))
`

/**
 * Starts the receiver thread. `arrivals` holds each `ref_id|event`'s first arrival and `times`
 * every arrival, both in this thread's `performance.now()` terms once `flush()` has resolved;
 * `count()` is exact at any moment.
 */
export async function startReceiver() {
  const counter = new Int32Array(new SharedArrayBuffer(4))
  const thread = new Worker(RECEIVER_THREAD, { eval: true, workerData: { counter: counter.buffer } })
  // The first calls of either clock are slow (1–2 ms apart): the offset is the last of a few readings.
  let offset = 0
  for (let i = 0; i < 5; i++) offset = monotonicMs() - performance.now()
  const arrivals = new Map<string, number>()
  const times: number[] = []
  const flushed: (() => void)[] = []
  const port = await new Promise<number>((resolve, reject) => {
    thread.on('error', reject)
    thread.on('message', (m: { port?: number; arrivals?: Arrival[]; flushed?: boolean }) => {
      if (m.port) resolve(m.port)
      for (const [key, at] of m.arrivals ?? []) {
        times.push(at - offset)
        if (!arrivals.has(key)) arrivals.set(key, at - offset)
      }
      if (m.flushed) flushed.shift()?.()
    })
  })
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals,
    times,
    count: () => Atomics.load(counter, 0),
    flush: () => new Promise<void>((resolve) => (flushed.push(resolve), thread.postMessage('flush'))),
    close: () => new Promise((resolve) => (thread.once('exit', resolve), thread.postMessage('close'))),
  }
}
