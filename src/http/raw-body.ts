import type { FastifyInstance } from 'fastify'
import { AppError } from '../errors.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body's bytes as received, where keepRawJsonBody() parses it. */
    rawBody?: Buffer
  }
}

/**
 * JSON parsed here, its bytes kept on request.rawBody: a callback signed over its raw body (Tripay,
 * Moota) is checked against what was sent, never a re-serialisation. For the plugin's own routes.
 */
export function keepRawJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    request.rawBody = body as Buffer
    try {
      done(null, JSON.parse((body as Buffer).toString('utf8')))
    } catch {
      done(new AppError('INVALID_JSON'), undefined)
    }
  })
}
