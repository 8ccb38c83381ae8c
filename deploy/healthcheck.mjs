// The container health check (slim images have no curl). A process serving HTTP (ROLE all or api)
// is healthy when /readyz answers 200 (the database answered within a second); a worker serves
// nothing but its metrics, so it is checked there when METRICS_PORT is set and counted healthy otherwise.
const role = process.env.ROLE ?? { false: 'api', only: 'worker' }[process.env.WORKERS] ?? 'all'
const url =
  role === 'worker'
    ? process.env.METRICS_PORT && `http://127.0.0.1:${process.env.METRICS_PORT}/metrics`
    : `http://127.0.0.1:${process.env.PORT ?? 8080}/readyz`
if (!url) process.exit(0)
try {
  const res = await fetch(url, { signal: AbortSignal.timeout(2_500) })
  if (!res.ok) console.error(`${url}: HTTP ${res.status}`)
  process.exit(res.ok ? 0 : 1)
} catch (error) {
  console.error(`${url}: ${error.cause?.code ?? error.message}`)
  process.exit(1)
}
