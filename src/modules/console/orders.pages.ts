import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'

export function orderPages(_ctx: AppContext): FastifyPluginAsyncTypebox {
  return async () => {}
}
