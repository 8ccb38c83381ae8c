import http from 'node:http'
import type net from 'node:net'
import { afterAll } from 'vitest'

export type Received = { at: number; headers: http.IncomingHttpHeaders; body: string; json: any }
type Answer = { status: number; headers?: Record<string, string>; delayMs?: number }

/**
 * A webhook receiver on 127.0.0.1: records every request and answers what `respond` says
 * (200 by default). Closed after the file's tests.
 */
export async function startReceiver(respond: (request: Received, index: number) => Answer | Promise<Answer> = () => ({ status: 200 })) {
  const received: Received[] = []
  const waiters: { count: number; resolve: () => void }[] = []
  const sockets = new Set<net.Socket>()
  let answer = respond
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let json: unknown
      try {
        json = JSON.parse(body)
      } catch {
        json = undefined
      }
      const request: Received = { at: performance.now(), headers: req.headers, body, json }
      received.push(request)
      for (const w of waiters.filter((w) => received.length >= w.count)) w.resolve()
      const { status, headers, delayMs } = await answer(request, received.length - 1)
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs))
      res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end('ok')
    })
  })
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as net.AddressInfo).port
  const close = async () => {
    sockets.forEach((s) => s.destroy())
    await new Promise((r) => server.close(r))
  }
  afterAll(close)
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    /** Changes how later requests are answered. */
    answerWith(next: typeof respond) {
      answer = next
    },
    /** Resolves once `count` requests have arrived in all (or rejects after `timeoutMs`). */
    waitFor(count: number, timeoutMs = 20_000) {
      if (received.length >= count) return Promise.resolve()
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} of ${count} requests`)), timeoutMs)
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) })
      })
    },
    close,
  }
}
