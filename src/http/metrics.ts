import type { FastifyInstance } from 'fastify'
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/** Prometheus metrics for one app instance (its own registry, so tests can build many apps). */
export function registerMetrics(app: FastifyInstance, options: { processMetrics: boolean }): Registry {
  const registry = new Registry()
  if (options.processMetrics) collectDefaultMetrics({ register: registry })
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
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-type', registry.contentType)
    return registry.metrics()
  })
  return registry
}
