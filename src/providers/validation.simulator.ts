import type { FastifyPluginAsync } from 'fastify'
import { steeringOf } from './simulator-steering.js'

/**
 * An account-validation source for game ids: GET /check?product=&id=&zone= answers
 * {found: true, username, region} or {found: false, message}. An id ending in 2 does not exist.
 */
export function validationSimulator() {
  const checks: { product: string; id: string; zone: string }[] = []
  const plugin: FastifyPluginAsync = async (app) => {
    app.get('/check', { schema: { hide: true } }, async (request) => {
      const q = request.query as Record<string, string | undefined>
      const check = { product: q.product ?? '', id: q.id ?? '', zone: q.zone ?? '' }
      checks.push(check)
      if (!check.id || steeringOf(check.id) === 'fail') return { found: false, message: 'account not found' }
      return { found: true, username: `Player${check.id.slice(-4)}`, region: check.zone ? `ID-${check.zone}` : 'ID' }
    })
  }
  return { plugin, checks }
}
export type ValidationSimulator = ReturnType<typeof validationSimulator>
