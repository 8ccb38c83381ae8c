import http from 'node:http'

/**
 * An open-loop load at a steady rate: requests leave evenly spaced (autocannon's rate limit sends
 * each second's quota in a burst), and latency counts from the planned send time, so time spent
 * queued behind a slow answer is not hidden.
 */
export async function pacedLoad(options: {
  base: string
  rate: number
  seconds: number
  request: () => { path: string; headers: Record<string, string>; body: string }
  /** Called with each accepted (2xx) request's body and the time its answer arrived (webhook latency). */
  answered?: (body: string, at: number) => void
}) {
  const url = new URL(options.base)
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
  const latencies: number[] = []
  let errors = 0
  let non2xx = 0
  const total = Math.round(options.rate * options.seconds)
  const interval = 1000 / options.rate
  const start = performance.now()
  const inFlight: Promise<void>[] = []
  for (let n = 0; n < total; n++) {
    const planned = start + n * interval
    const wait = planned - performance.now()
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait))
    const { path, headers, body } = options.request()
    inFlight.push(
      new Promise<void>((resolve) => {
        const req = http.request(
          {
            host: url.hostname,
            port: url.port,
            path,
            method: 'POST',
            agent,
            headers: { ...headers, 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume()
            res.on('end', () => {
              const code = res.statusCode ?? 500
              if (code >= 200 && code < 300) options.answered?.(body, performance.now())
              latencies.push(performance.now() - planned)
              if (code === 429 || code >= 500) errors++
              else if (code >= 300) non2xx++
              resolve()
            })
          },
        )
        req.on('error', () => (errors++, resolve()))
        req.end(body)
      }),
    )
  }
  await Promise.all(inFlight)
  agent.destroy()
  const elapsed = (performance.now() - start) / 1000
  latencies.sort((a, b) => a - b)
  const at = (q: number) => Number((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0).toFixed(1))
  return { req_per_s: Math.round(total / elapsed), p50_ms: at(0.5), p99_ms: at(0.99), requests: total, non_2xx: non2xx, errors }
}
