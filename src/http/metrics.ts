import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { registerErrorHandlers } from './error-handler.js'

declare module 'fastify' {
  interface FastifyInstance {
    metricsRegistry: Registry
  }
}

type MetricsOptions = {
  processMetrics: boolean
  /** False when METRICS_PORT serves them (main.ts starts that listener). */
  servedHere: boolean
  /** Guards `/metrics` on the API port: it shows admin route counters, versions and memory. */
  authenticate: (request: FastifyRequest) => Promise<void>
  /** Gauges read at scrape time (the alert conditions'), registered on the app's registry. */
  gauges?: (registry: Registry) => void
}

/** Prometheus metrics for one app instance (its own registry, so tests can build many apps). */
export function registerMetrics(app: FastifyInstance, options: MetricsOptions): Registry {
  const registry = new Registry()
  if (options.processMetrics) collectDefaultMetrics({ register: registry })
  options.gauges?.(registry)
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  })
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched'
    requests.inc({ method: request.method, route, status: reply.statusCode })
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000)
  })
  app.decorate('metricsRegistry', registry)
  if (options.servedHere) app.get('/metrics', { schema: { hide: true }, onRequest: options.authenticate }, exposition(registry))
  return registry
}

/** The listener of METRICS_PORT: `/metrics` only, left open (the port is the operator's to fence). */
export function metricsServer(registry: Registry): FastifyInstance {
  const server = Fastify({ logger: false })
  registerErrorHandlers(server)
  server.get('/metrics', exposition(registry))
  return server
}

function exposition(registry: Registry) {
  return async (_request: FastifyRequest, reply: { header(name: string, value: string): unknown }) => {
    reply.header('content-type', registry.contentType)
    return registry.metrics()
  }
}
