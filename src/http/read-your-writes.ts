import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Database } from '../db/database.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** Where this page's lag-tolerant lists are read: a replica (ctx.dbRead), or the primary just after this browser wrote. */
    readDb: Database
  }
}

const WROTE = 'wrote_recently'

type Reads = { db: Database; dbRead: Database; config: { readMaxLagMs: number; appEnv: string } }

/**
 * A web area's lists read from a replica (docs/operating.md#read-replicas), but the page a form
 * redirects to must show what the form just did: for READ_MAX_LAG_MS after a write, a cookie sends
 * this browser's reads to the primary, on whichever process behind the balancer answers it.
 */
export function readYourWrites(app: FastifyInstance, ctx: Reads, path: string): void {
  const replicas = ctx.dbRead !== ctx.db
  app.decorateRequest('readDb', null as unknown as Database)
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const reading = request.method === 'GET' || request.method === 'HEAD'
    request.readDb = replicas && reading && request.cookies[WROTE] === undefined ? ctx.dbRead : ctx.db
  })
  if (!replicas) return
  app.addHook('onSend', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD') return
    reply.setCookie(WROTE, '1', {
      path,
      sameSite: 'lax',
      httpOnly: true,
      secure: ctx.config.appEnv === 'production',
      // Whole seconds, and one more: the bound a replica's reads are kept within.
      maxAge: Math.ceil(ctx.config.readMaxLagMs / 1000) + 1,
    })
  })
}
