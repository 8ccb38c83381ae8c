import type { FastifyPluginAsync } from 'fastify'
import { steerablePriceList } from './price-list.simulator.js'
import { SIMULATOR_CREDENTIALS, steeringOf, type Steering } from './simulator-steering.js'

const service = (id: number, name: string, category: string, rate: string, min: number, max: number) => ({
  service: id,
  name,
  type: 'Default',
  category,
  rate,
  min: String(min),
  max: String(max),
  refill: true,
  cancel: false,
})

type SimOrder = { id: number; service: string; link: string; quantity: number; steering: Steering; looks: number }

/**
 * An SMM panel API v2 (form POST with key and action: add, status, services, balance), in memory.
 * Orders progress on each status look, by the link's last character (simulator-steering.ts).
 */
export function smmPanelSimulator(apiKey: string = SIMULATOR_CREDENTIALS.apiKey) {
  const orders = new Map<number, SimOrder>()
  /** Every `add` received, in order: tests count upstream orders here. */
  const adds: { service: string; link: string; quantity: number }[] = []
  /** Services whose `add` the panel refuses with an error (a service disabled at the panel): tests steer it. */
  const refusedServices = new Set<string>()
  /** What `balance` answers (a panel keeps it in its own currency); tests set it. */
  const balance = { amount: '100.84', currency: 'USD' }
  // Ids stay unique across restarts of the demo: a new process never hands out an old id.
  let nextId = Date.now() % 1_000_000_000
  /** `action=services`, steerable (price-list.simulator.ts); a product is off at a panel by leaving the list. */
  const services = steerablePriceList('service', [
    service(1, 'Instagram Followers', 'Instagram', '0.90', 10, 10_000),
    service(2, 'Instagram Likes', 'Instagram', '0.35', 20, 50_000),
    service(3, 'TikTok Views', 'TikTok', '0.02', 100, 1_000_000),
  ])

  const stateOf = (o: SimOrder) => {
    o.looks++
    const started = { charge: '0.10', start_count: '1200', currency: 'USD' }
    if (o.steering === 'fail') return { ...started, status: 'Canceled', remains: String(o.quantity) }
    if (o.steering === 'later' && o.looks === 1) return { ...started, status: 'In progress', remains: String(Math.ceil(o.quantity / 2)) }
    if (o.steering === 'partial') return { ...started, status: 'Partial', remains: String(Math.floor(o.quantity * 0.4)) }
    return { ...started, status: 'Completed', remains: '0' }
  }
  const lookUp = (id: string) => {
    const order = /^\d+$/.test(id.trim()) ? orders.get(Number(id)) : undefined
    return order ? stateOf(order) : { error: 'Incorrect order ID' }
  }

  const plugin: FastifyPluginAsync = async (app) => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    )
    app.post('/', { schema: { hide: true } }, async (request, reply) => {
      const form = (request.body ?? {}) as Record<string, string>
      if (form.key !== apiKey) return { error: 'Invalid API key' }
      switch (form.action) {
        case 'add': {
          const quantity = Number(form.quantity)
          if (!form.service || !form.link || !Number.isSafeInteger(quantity) || quantity <= 0) return { error: 'Incorrect request' }
          adds.push({ service: form.service, link: form.link, quantity })
          if (refusedServices.has(form.service)) return { error: 'Service is disabled' }
          const order = { id: ++nextId, service: form.service, link: form.link, quantity, steering: steeringOf(form.link), looks: 0 }
          orders.set(order.id, order)
          return { order: order.id }
        }
        case 'status':
          if (form.orders)
            return Object.fromEntries(
              form.orders
                .split(',')
                .slice(0, 100)
                .map((id) => [id.trim(), lookUp(id)]),
            )
          return form.order ? lookUp(form.order) : { error: 'Incorrect order ID' }
        case 'services': {
          const read = services.read()
          if ('failure' in read) return reply.status(read.failure.httpStatus).send({ error: read.failure.message })
          return read.list
        }
        case 'balance':
          return { balance: balance.amount, currency: balance.currency }
        default:
          return { error: 'Incorrect action' }
      }
    })
  }
  return { plugin, orders, adds, services, refusedServices, balance }
}
export type SmmPanelSimulator = ReturnType<typeof smmPanelSimulator>
