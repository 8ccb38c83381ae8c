import crypto from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { IncomingMessage } from 'node:http'

// A caller's id is echoed only when it is short plain text: it lands in logs and headers.
const SANE = /^[A-Za-z0-9._:@/+=-]{1,128}$/

/** Fastify's genReqId: the caller's X-Request-Id when sane, else a new UUID; pino logs it as reqId on every line. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id']
  return typeof given === 'string' && SANE.test(given) ? given : crypto.randomUUID()
}

/** Every answer names its request, so a caller can quote it and an operator can find its log lines. */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })
}
