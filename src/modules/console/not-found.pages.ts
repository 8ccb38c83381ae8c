import type { FastifyInstance } from 'fastify'
import { AppError } from '../../errors.js'

/**
 * `/console/` and a console path no page has: an HTML page in the console's layout (the error page's
 * 404, or the overview for the trailing slash), not the API's JSON. GET only: a form posts to a known route.
 * Registered last; a wildcard loses to every static and parametric route.
 */
export async function notFoundPages(app: FastifyInstance) {
  app.get('/console/', { config: { consoleAccess: 'open' }, schema: { hide: true } }, (_request, reply) => reply.redirect('/console', 301))
  app.get('/console/*', { schema: { hide: true } }, async () => {
    throw new AppError('NOT_FOUND')
  })
}
