import type { FastifyPluginAsync } from 'fastify'
import { SIMULATOR_CREDENTIALS, steeringOf, type Steering } from './simulator-steering.js'

type SimOrder = { id: number; service: string; link: string; quantity: number; steering: Steering; looks: number }

/**
 * An SMM panel API v2 (form POST with key and action: add, status, services, balance), in memory.
 * Orders progress on each status look, by the link's last character (simulator-steering.ts).
 */
export function smmPanelSimulator(apiKey: string = SIMULATOR_CREDENTIALS.apiKey) {
  const orders = new Map<number, SimOrder>()
  /** Every `add` received, in order: tests count upstream orders here. */
  const adds: { service: string; link: string; quantity: number }[] = []
  // Ids stay unique across restarts of the demo: a new process never hands out an old id.
  let nextId = Date.now() % 1_000_000_000

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
    app.post('/', { schema: { hide: true } }, async (request) => {
      const form = (request.body ?? {}) as Record<string, string>
      if (form.key !== apiKey) return { error: 'Invalid API key' }
      switch (form.action) {
        case 'add': {
          const quantity = Number(form.quantity)
          if (!form.service || !form.link || !Number.isSafeInteger(quantity) || quantity <= 0) return { error: 'Incorrect request' }
          adds.push({ service: form.service, link: form.link, quantity })
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
        case 'services':
          return [
            {
              service: 1,
              name: 'Instagram Followers',
              type: 'Default',
              category: 'Instagram',
              rate: '0.90',
              min: '10',
              max: '10000',
              refill: true,
              cancel: false,
            },
          ]
        case 'balance':
          return { balance: '100.84', currency: 'USD' }
        default:
          return { error: 'Incorrect action' }
      }
    })
  }
  return { plugin, orders, adds }
}
export type SmmPanelSimulator = ReturnType<typeof smmPanelSimulator>
